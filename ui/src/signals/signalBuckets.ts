// /feedback/aggregate answers sparse buckets (a bucket or group without signals is left out):
// laid out here on every bucket of the window, as the series the timeline and the trends draw.
import type { FeedbackAggregateBucket, FeedbackAggregateRes } from '../api/types';
import { RATING_KEY } from './signalVerdict';

/** Every bucket start of the answer's window (ms), aligned as the server aligns them. */
export function bucketStarts(res: FeedbackAggregateRes): number[] {
  const step = (res.time_bucket_seconds ?? 0) * 1000;
  if (step <= 0) return [];
  const out: number[] = [];
  for (let t = Math.floor(res.after_ms / step) * step; t < res.before_ms; t += step) out.push(t);
  return out;
}

const tagTotal = (b: FeedbackAggregateBucket) => Object.values(b.tag_counts).reduce((n, c) => n + c, 0);
const ratingCount = (b: FeedbackAggregateBucket) => b.rating_counts[RATING_KEY] ?? 0;

function perBucket<T>(starts: number[], buckets: FeedbackAggregateBucket[], value: (b: FeedbackAggregateBucket) => T) {
  const at = new Map(buckets.map((b) => [b.time_bucket_start_ms, b]));
  return starts.map((s) => {
    const b = at.get(s);
    return b === undefined ? null : value(b);
  });
}

/** Ratings given per bucket (0 where none), and tags given (null where none: a line's gap). */
export function volumeSeries(res: FeedbackAggregateRes) {
  const starts = bucketStarts(res);
  return {
    starts,
    ratings: perBucket(starts, res.buckets, ratingCount).map((v) => v ?? 0),
    tags: perBucket(starts, res.buckets, tagTotal).map((v) => (v === 0 ? null : v)),
  };
}

export interface ScorerTrend {
  scorer: string;
  kind: 'rating' | 'tags';
  /** Per bucket: the mean rating (null: none), or the tags given. */
  values: (number | null)[];
  /** Over the window: the mean rating, or the tags given. */
  overall: number | null;
  scored: number;
  /** Tags given over the window, most frequent first. */
  tags: [string, number][];
}

/** One trend per scorer of an answer grouped by scorer_id, the busiest first. */
export function scorerTrends(res: FeedbackAggregateRes): ScorerTrend[] {
  const starts = bucketStarts(res);
  const byScorer = new Map<string, FeedbackAggregateBucket[]>();
  for (const b of res.buckets) {
    const id = b.group.scorer_id ?? '';
    if (id !== '') byScorer.set(id, [...(byScorer.get(id) ?? []), b]);
  }
  const trends = [...byScorer].map(([scorer, buckets]): ScorerTrend => {
    const ratings = buckets.reduce((n, b) => n + ratingCount(b), 0);
    const tags = new Map<string, number>();
    for (const b of buckets) for (const [t, c] of Object.entries(b.tag_counts)) tags.set(t, (tags.get(t) ?? 0) + c);
    const scored = buckets.reduce((n, b) => n + b.scored_count, 0);
    if (ratings > 0) {
      const sum = buckets.reduce((n, b) => n + (b.rating_sums[RATING_KEY] ?? 0), 0);
      return {
        scorer,
        kind: 'rating',
        values: perBucket(starts, buckets, (b) =>
          ratingCount(b) > 0 ? (b.rating_sums[RATING_KEY] ?? 0) / ratingCount(b) : null,
        ),
        overall: sum / ratings,
        scored,
        tags: [...tags].sort((a, b) => b[1] - a[1]),
      };
    }
    return {
      scorer,
      kind: 'tags',
      values: perBucket(starts, buckets, tagTotal).map((v) => v ?? 0),
      overall: [...tags.values()].reduce((n, c) => n + c, 0),
      scored,
      tags: [...tags].sort((a, b) => b[1] - a[1]),
    };
  });
  return trends.sort((a, b) => b.scored - a.scored || a.scorer.localeCompare(b.scorer));
}
