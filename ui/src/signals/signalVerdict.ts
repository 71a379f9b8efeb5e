// A scorer's verdict as a feedback row carries it. Agent turn signals (`wandb.agent_monitor`)
// have it in the typed columns: the rating under `_rating_` of scorer_ratings, the tags in
// scorer_tags, each with its reason. Call scores (`wandb.runnable.<scorer>`) have it as the
// payload's output, read here as the server reads a verdict: `{value, reason}` (or `score`), a
// list of them, or `{scores: [...]}`; a number is a rating, text a tag.
import type { FeedbackRow } from '../call/useFeedback';
import { isDict } from '../isDict';

export const AGENT_MONITOR = 'wandb.agent_monitor';
export const RUNNABLE_PREFIX = 'wandb.runnable.';
export const RATING_KEY = '_rating_';

/** A feedback row with the columns signals fill (absent on other feedback). */
export interface SignalRow extends FeedbackRow {
  weave_ref?: string;
  trigger_ref?: string | null;
  scorer_tags?: string[] | null;
  scorer_tag_reasons?: Record<string, string> | null;
  scorer_ratings?: Record<string, number> | null;
  scorer_rating_reasons?: Record<string, string> | null;
  span_agent_name?: string | null;
  span_conversation_id?: string | null;
  span_trace_id?: string | null;
}

export interface Verdict {
  rating: number | null;
  tags: string[];
  /** Each reason with what it explains: a tag, or null for the rating. */
  reasons: { tag: string | null; text: string }[];
}

export const isSignal = (r: { feedback_type: string }) =>
  r.feedback_type === AGENT_MONITOR || r.feedback_type.startsWith(RUNNABLE_PREFIX);

/** `weave:///entity/project/object/name:digest` -> `name` (null: no object ref). */
export function objectIdOf(ref: string | null | undefined): string | null {
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/object\/([^:/]+)(?::[^/]*)?$/.exec(ref ?? '');
  return m ? decodeURIComponent(m[1]!) : null;
}

/** The scorer's object id, else the name in its feedback type. */
export function scorerOf(r: SignalRow): string {
  return (
    objectIdOf(r.runnable_ref) ??
    (r.feedback_type.startsWith(RUNNABLE_PREFIX) ? r.feedback_type.slice(RUNNABLE_PREFIX.length) : r.feedback_type)
  );
}

function fromColumns(r: SignalRow): Verdict | null {
  const rating = r.scorer_ratings?.[RATING_KEY];
  const tags = r.scorer_tags ?? [];
  if (rating === undefined && tags.length === 0) return null;
  const reasons: Verdict['reasons'] = [];
  const ratingReason = r.scorer_rating_reasons?.[RATING_KEY];
  if (ratingReason) reasons.push({ tag: null, text: ratingReason });
  for (const t of tags) {
    const text = r.scorer_tag_reasons?.[t];
    if (text) reasons.push({ tag: t, text });
  }
  return { rating: typeof rating === 'number' ? rating : null, tags, reasons };
}

function fromOutput(output: unknown): Verdict {
  const list =
    isDict(output) && Array.isArray(output.scores) ? output.scores : Array.isArray(output) ? output : [output];
  const out: Verdict = { rating: null, tags: [], reasons: [] };
  for (const s of list) {
    const value = isDict(s) ? ('value' in s ? s.value : s.score) : s;
    const reason = isDict(s) && typeof s.reason === 'string' && s.reason !== '' ? s.reason : null;
    if (typeof value === 'number' && out.rating === null) {
      out.rating = value;
      if (reason) out.reasons.push({ tag: null, text: reason });
    } else if (typeof value === 'string' || typeof value === 'boolean') {
      const tag = String(value);
      out.tags.push(tag);
      if (reason) out.reasons.push({ tag, text: reason });
    }
  }
  return out;
}

export function verdictOf(r: SignalRow): Verdict {
  return fromColumns(r) ?? fromOutput(isDict(r.payload) ? r.payload.output : undefined);
}

/** The reasons as one line: the rating's alone, tags' as `tag: reason`. */
export const reasonText = (v: Verdict) =>
  v.reasons.map((x) => (x.tag === null || v.reasons.length === 1 ? x.text : `${x.tag}: ${x.text}`)).join(' · ');
