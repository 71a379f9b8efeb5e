// The window /feedback/stats and /feedback/payload_schema read (Weave's feedback stats base):
// created_at in [start, end), end defaulting to now, at most 31 days; an exact feedback_type;
// a trigger_ref matched exactly, or as a prefix when it ends with ":*" (every version of a
// monitor: Weave strips the ":*", so "mon:*" also matches "monday:...").
import { FEEDBACK_MAX_RANGE_DAYS } from '../../api/feedback-analytics.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { FeedbackWindow } from '../../storage/feedback/feedback-analytics.js';
import { parseTimestamp, type Micros } from '../../time.js';
import { DAY } from '../stats/time-buckets.js';

export interface WindowReq {
  readonly project_id: string;
  readonly start: string;
  readonly end?: string | null | undefined;
  readonly feedback_type?: string | null | undefined;
  readonly trigger_ref?: string | null | undefined;
}

/** The checked window of a request; `now` is the end when none is given. */
export function feedbackWindow(req: WindowReq, now: Micros): FeedbackWindow {
  const start = parseTimestamp(req.start, 'start');
  const end = req.end ? parseTimestamp(req.end, 'end') : now;
  if (end < start) throw new InvalidRequestError('end must not be before start');
  if (end - start > FEEDBACK_MAX_RANGE_DAYS * DAY)
    throw new InvalidRequestError(`the range from start to end cannot exceed ${FEEDBACK_MAX_RANGE_DAYS} days`);
  const ref = req.trigger_ref ?? null;
  return {
    projectId: req.project_id,
    start,
    end,
    feedbackType: req.feedback_type ?? null,
    triggerRef:
      ref === null
        ? null
        : ref.endsWith(':*')
          ? { value: ref.slice(0, -2), prefix: true }
          : { value: ref, prefix: false },
  };
}
