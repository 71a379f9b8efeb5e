// The Signals view's URL state: the scorer, agent and tag shown, the rating range (0-1), and
// the time window: a quick range (`?range=`, default the last 7 days) or a zoomed window
// (`?from=&to=`, ISO 8601) dragged across the timeline. Anything invalid is dropped.
import { QUICK_RANGES } from '../shell/quickRanges';

export type RangeId = (typeof QUICK_RANGES)[number][0];
export const DEFAULT_RANGE: RangeId = '7d';

export interface SignalsSearch {
  scorer?: string;
  agent?: string;
  tag?: string;
  /** Ratings at least / at most this (0-1). */
  min?: number;
  max?: number;
  range?: RangeId;
  from?: string;
  to?: string;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const unit = (v: unknown) => {
  const n = typeof v === 'string' && v !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
};
const instant = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : undefined);

export function parseSignalsSearch(raw: Record<string, unknown>): SignalsSearch {
  const out: SignalsSearch = {};
  for (const k of ['scorer', 'agent', 'tag'] as const) {
    const v = text(raw[k]);
    if (v !== undefined) out[k] = v;
  }
  const min = unit(raw.min);
  const max = unit(raw.max);
  if (min !== undefined) out.min = min;
  if (max !== undefined && (min === undefined || max >= min)) out.max = max;
  if (QUICK_RANGES.some(([id]) => id === raw.range)) out.range = raw.range as RangeId;
  const from = instant(raw.from);
  const to = instant(raw.to);
  if (from !== undefined && to !== undefined && Date.parse(to) > Date.parse(from)) {
    out.from = from;
    out.to = to;
  }
  return out;
}

/** The window in ms since the epoch: the zoomed one, else the quick range up to now. */
export function windowOf(s: SignalsSearch, now = Date.now()): { after: number; before: number } {
  if (s.from !== undefined && s.to !== undefined) return { after: Date.parse(s.from), before: Date.parse(s.to) };
  const ms = QUICK_RANGES.find(([id]) => id === (s.range ?? DEFAULT_RANGE))![2];
  return { after: now - ms, before: now };
}

/** Round bucket widths (seconds); the smallest that gives at most 60 buckets is used. */
const BUCKETS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400];

export function bucketSecondsOf(w: { after: number; before: number }): number {
  const span = (w.before - w.after) / 1000;
  return BUCKETS.find((b) => span / b <= 60) ?? BUCKETS.at(-1)!;
}

/** True when any filter (not the window) is set. */
export const isFiltered = (s: SignalsSearch) =>
  s.scorer !== undefined || s.agent !== undefined || s.tag !== undefined || s.min !== undefined || s.max !== undefined;
