// Time buckets of the stats routes (/agents/spans/stats, /feedback/stats): Weave's automatic
// granularity (stats_query_base.py: auto_select_granularity_seconds, ensure_max_buckets) and
// buckets aligned in a time zone, so that a day bucket starts at local midnight. The zone's
// offset is read once, at `start` (a range that crosses a daylight-saving change keeps the
// offset it started with).
import { InvalidRequestError } from '../../api/errors.js';
import type { Micros } from '../../time.js';

export const SECOND: Micros = 1_000_000;
export const DAY: Micros = 86_400 * SECOND;
/** Weave's MAX_BUCKETS: a coarser granularity is chosen rather than more buckets. */
export const MAX_BUCKETS = 10_000;

/** Weave's auto_select_granularity_seconds. */
function autoGranularity(rangeSeconds: number): number {
  if (rangeSeconds <= 2 * 3600) return 300;
  if (rangeSeconds <= 12 * 3600) return 3600;
  if (rangeSeconds <= 3 * 86_400) return 6 * 3600;
  if (rangeSeconds <= 14 * 86_400) return 12 * 3600;
  return 86_400;
}

/** The granularity in seconds for [start, end): the requested one or the automatic one, raised to stay within MAX_BUCKETS. */
export function statsGranularity(start: Micros, end: Micros, requested: number | null | undefined): number {
  const rangeSeconds = (end - start) / SECOND;
  const granularity = requested ?? autoGranularity(rangeSeconds);
  return rangeSeconds / granularity > MAX_BUCKETS ? Math.floor(rangeSeconds / MAX_BUCKETS) + 1 : granularity;
}

/** The zone's offset from UTC at an instant, in microseconds (400 for an unknown zone). */
export function zoneOffset(at: Micros, timeZone: string): Micros {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(Math.floor(at / 1000)));
  } catch {
    throw new InvalidRequestError(`timezone: unknown time zone ${JSON.stringify(timeZone)}`);
  }
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return (local - Math.floor(at / 1_000_000) * 1000) * 1000;
}

/** The start of the bucket of `width` holding `start`, buckets counted from the epoch in the zone's local time. */
export function alignedOrigin(start: Micros, width: Micros, timeZone: string): Micros {
  const offset = zoneOffset(start, timeZone);
  return Math.floor((start + offset) / width) * width - offset;
}

/** How many buckets of `width` from `origin` it takes to pass `end` (0 for an empty range). */
export const bucketCount = (origin: Micros, end: Micros, width: Micros): number =>
  Math.max(0, Math.ceil((end - origin) / width));

/** A float at 15 significant digits, so that both engines' last-bit differences read the same. */
export const readable = (v: number): number => (Number.isInteger(v) ? v : Number(v.toPrecision(15)));
