// A scorer's verdict as feedback's typed columns, normalized as Weave normalizes it
// (agents.md §4.6): one `{value, reason?, confidence?}`, a list of them, or `{scores: [...]}`
// (Weft also takes `score` for `value`, as judges often answer). A value that is text of up to
// 36 characters is a tag (letters, digits, spaces and `. , ; - & ! @ # $ % ?` kept, lower-cased,
// blanks to `-`; at most 10, sorted, repeats skipped; a blank tag keeps its reason under
// `_empty_`); a number from 0 to 1 is the rating (`_rating_`; one at most). Reasons are
// filtered the same way and cut at 256 characters; confidences are numbers from 0 to 1.
import { ScoreError } from './score-error.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface VerdictColumns {
  scorer_tags: string[];
  scorer_tag_reasons: Record<string, string>;
  scorer_tag_confidences: Record<string, number>;
  scorer_ratings: Record<string, number>;
  scorer_rating_reasons: Record<string, string>;
  scorer_rating_confidences: Record<string, number>;
}

const MAX_TAGS = 10;
const MAX_TAG = 36;
const MAX_REASON = 256;
const KEEP = /[^\p{L}\p{N} .,;\-&!@#$%?]/gu;
export const RATING_KEY = '_rating_';
const EMPTY_TAG = '_empty_';

const clean = (s: string) => s.replace(KEEP, '').trim();
const tagOf = (s: string) => clean(s).toLowerCase().replace(/\s+/g, '-');

function scoresOf(raw: unknown): Dict[] {
  const list = isDict(raw) && Array.isArray(raw.scores) ? raw.scores : Array.isArray(raw) ? raw : [raw];
  if (!list.every(isDict)) throw new ScoreError('A score must be an object {value, reason?, confidence?}', false);
  return list as Dict[];
}

function confidenceOf(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || v < 0 || v > 1) throw new ScoreError('A confidence must be a number from 0 to 1', false);
  return v;
}

export function verdictColumns(raw: unknown): VerdictColumns {
  const out: VerdictColumns = {
    scorer_tags: [],
    scorer_tag_reasons: {},
    scorer_tag_confidences: {},
    scorer_ratings: {},
    scorer_rating_reasons: {},
    scorer_rating_confidences: {},
  };
  for (const s of scoresOf(raw)) {
    const value = 'value' in s ? s.value : s.score;
    const reason = typeof s.reason === 'string' ? clean(s.reason).slice(0, MAX_REASON) : null;
    const confidence = confidenceOf(s.confidence);
    if (typeof value === 'number' && value >= 0 && value <= 1) {
      if (RATING_KEY in out.scorer_ratings) throw new ScoreError('A verdict holds at most one rating', false);
      out.scorer_ratings[RATING_KEY] = value;
      if (reason) out.scorer_rating_reasons[RATING_KEY] = reason;
      if (confidence !== null) out.scorer_rating_confidences[RATING_KEY] = confidence;
    } else if (typeof value === 'string' && value.length <= MAX_TAG) {
      const tag = tagOf(value);
      if (tag === '') {
        if (reason) out.scorer_tag_reasons[EMPTY_TAG] = reason;
        continue;
      }
      if (out.scorer_tags.includes(tag) || out.scorer_tags.length >= MAX_TAGS) continue;
      out.scorer_tags.push(tag);
      if (reason) out.scorer_tag_reasons[tag] = reason;
      if (confidence !== null) out.scorer_tag_confidences[tag] = confidence;
    } else {
      throw new ScoreError(
        `A score's value must be a tag of up to ${MAX_TAG} characters or a number from 0 to 1`,
        false,
      );
    }
  }
  out.scorer_tags.sort();
  return out;
}
