// The evaluation views' URL state: which runs to compare, the baseline, and which examples.
export type ExampleFilter = 'regressions' | 'improvements';

export interface EvaluationsCompareSearch {
  /** evaluate call ids, in column order */
  ids?: string[];
  /** one of ids; default the first */
  baseline?: string;
  /** examples where some run scores worse (regressions) or better than the baseline */
  filter?: ExampleFilter;
  /** the score the filter looks at; default any */
  score?: string;
  /** how a change reads: difference, percent, or ratio */
  delta?: 'pct' | 'ratio';
  /** metrics where lower is better, against the default (evalData.ts) */
  lower?: string[];
  /** metrics where higher is better, against the default */
  higher?: string[];
  /** the example open in the side panel: its key */
  example?: string;
}

const names = (v: unknown) =>
  Array.isArray(v) ? [...new Set(v.filter((x): x is string => typeof x === 'string' && x !== ''))] : [];

export function parseEvaluationsCompareSearch(raw: Record<string, unknown>): EvaluationsCompareSearch {
  const out: EvaluationsCompareSearch = {};
  if (Array.isArray(raw.ids)) {
    const ids = [...new Set(raw.ids.filter((x): x is string => typeof x === 'string' && x !== ''))];
    if (ids.length > 0) out.ids = ids;
  }
  if (typeof raw.baseline === 'string' && out.ids?.includes(raw.baseline)) out.baseline = raw.baseline;
  if (raw.filter === 'regressions' || raw.filter === 'improvements') out.filter = raw.filter;
  if (typeof raw.score === 'string' && raw.score !== '') out.score = raw.score;
  if (raw.delta === 'pct' || raw.delta === 'ratio') out.delta = raw.delta;
  const lower = names(raw.lower);
  const higher = names(raw.higher).filter((m) => !lower.includes(m));
  if (lower.length > 0) out.lower = lower;
  if (higher.length > 0) out.higher = higher;
  if (typeof raw.example === 'string' && raw.example !== '') out.example = raw.example;
  return out;
}
