// The fields of feedback a query may name (select, filter, sort): every column by
// its name, and `payload.<path>` as a JSON path whose value follows ClickHouse
// JSON_VALUE rules (text, '' when missing), as in Weave's orm.py. Anything else is an
// InvalidFieldError (422).
import { InvalidFieldError } from '../api/errors.js';
import type { FieldCatalog, FieldRef } from './plan.js';

/** Every feedback column, in the order /feedback/query returns them by default. */
export const FEEDBACK_COLUMNS = [
  'id',
  'project_id',
  'weave_ref',
  'wb_user_id',
  'creator',
  'created_at',
  'feedback_type',
  'payload',
  'annotation_ref',
  'runnable_ref',
  'call_ref',
  'trigger_ref',
  'queue_id',
  'scorer_tags',
  'scorer_tag_reasons',
  'scorer_tag_confidences',
  'scorer_ratings',
  'scorer_rating_reasons',
  'scorer_rating_confidences',
  'span_agent_name',
  'span_agent_version',
  'span_status_code',
  'scorer_trace_id',
  'span_trace_id',
  'span_conversation_id',
] as const;
export type FeedbackColumnName = (typeof FEEDBACK_COLUMNS)[number];

/** Columns holding JSON text; only `payload` may be entered with a dotted path. */
export const FEEDBACK_JSON_COLUMNS: ReadonlySet<string> = new Set([
  'payload',
  'scorer_tags',
  'scorer_tag_reasons',
  'scorer_tag_confidences',
  'scorer_ratings',
  'scorer_rating_reasons',
  'scorer_rating_confidences',
]);

const COLUMN_SET: ReadonlySet<string> = new Set(FEEDBACK_COLUMNS);

export function isFeedbackColumn(name: string): name is FeedbackColumnName {
  return COLUMN_SET.has(name);
}

export const feedbackFields: FieldCatalog = {
  resolve(name: string): FieldRef {
    if (isFeedbackColumn(name)) {
      return { kind: 'column', name, type: name === 'created_at' ? 'datetime' : 'string' };
    }
    if (name.startsWith('payload.')) {
      const path = name.slice('payload.'.length).split('.');
      if (path.every((p) => p.length > 0)) return { kind: 'json', column: 'payload', path };
    }
    throw new InvalidFieldError(`Invalid feedback field: ${name}`);
  },
};
