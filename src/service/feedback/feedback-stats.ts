// /feedback/stats (api/feedback-analytics.ts): payload values of the window's feedback per time
// bucket and over the whole window (window_stats), as Weave's feedback_stats_query_builder:
// granularity as /calls/stats (automatic steps, at most 10,000 buckets), dense buckets aligned
// in `timezone`, columns `{aggregation}_{slug}` and `p{P}_{slug}` plus `count` (rows). In a
// bucket, sum / avg / count* read 0 when there is no value, min / max / percentiles null.
// Without metrics the answer has no buckets (Weave's ClickHouse builder raises instead).
import {
  JSON_PATH_PATTERN,
  type FeedbackAggregation,
  type FeedbackMetricSpec,
  type FeedbackStatsReq,
  type FeedbackValueType,
} from '../../api/feedback-analytics.js';
import { InvalidRequestError } from '../../api/errors.js';
import type {
  FeedbackAnalyticsStore,
  FeedbackStatsOutput,
  PayloadValue,
} from '../../storage/feedback/feedback-analytics.js';
import { formatTimestamp, type Micros } from '../../time.js';
import { SECOND, alignedOrigin, bucketCount, readable, statsGranularity } from '../stats/time-buckets.js';
import { feedbackWindow } from './feedback-window.js';

/** What each value type may be aggregated by, and by what when the spec names nothing. */
const ALLOWED: Readonly<Record<FeedbackValueType, readonly FeedbackAggregation[]>> = {
  numeric: ['sum', 'avg', 'min', 'max', 'count'],
  boolean: ['count_true', 'count_false', 'count', 'sum', 'avg', 'min', 'max'],
  categorical: ['count'],
};
const DEFAULTS: Readonly<Record<FeedbackValueType, readonly FeedbackAggregation[]>> = {
  numeric: ['avg', 'min', 'max'],
  boolean: ['count_true', 'count_false'],
  categorical: ['count'],
};
/** Columns a bucket without values reads as 0 (Weave coalesces sum_, count_ and avg_ columns). */
const ZERO_IN_BUCKET = /^(sum|avg|count|count_true|count_false)$/;
const COUNTS = /^count/;

interface Output extends FeedbackStatsOutput {
  /** The window_stats entry it fills: its metric's slug and key (avg, p95...). */
  readonly slug: string;
  readonly key: string;
}

/** Weave's metric slug: the path with '.' and ' ' as '_'. */
const slugOf = (path: string) => path.replace(/[. ]/g, '_');
/** Weave's percentile key: p95, p99.5. */
const percentileKey = (p: number) => `p${String(p)}`;

function metricOutputs(m: FeedbackMetricSpec, i: number): { value: PayloadValue; outputs: Omit<Output, 'value'>[] } {
  const where = `metrics[${i}]`;
  if (m.json_path.trim() === '') throw new InvalidRequestError(`${where}.json_path cannot be empty`);
  if (!JSON_PATH_PATTERN.test(m.json_path))
    throw new InvalidRequestError(
      `${where}.json_path may only contain [a-zA-Z0-9_. ], got: ${JSON.stringify(m.json_path)}`,
    );
  const type = m.value_type ?? 'numeric';
  const aggregations = [...new Set(m.aggregations?.length ? m.aggregations : DEFAULTS[type])];
  const bad = aggregations.filter((a) => !ALLOWED[type].includes(a));
  if (bad.length > 0) throw new InvalidRequestError(`${where}: ${bad.join(', ')} not valid for ${type} values`);
  const percentiles = [...new Set(m.percentiles ?? [])];
  if (percentiles.length > 0 && type !== 'numeric')
    throw new InvalidRequestError(`${where}: percentiles are only valid for numeric values`);
  const outside = percentiles.filter((p) => !(p >= 0 && p <= 100));
  if (outside.length > 0) throw new InvalidRequestError(`${where}: percentiles must be between 0 and 100`);
  const slug = slugOf(m.json_path);
  return {
    value: { keys: m.json_path.split('.'), type },
    outputs: [
      ...aggregations.map((a) => ({ name: `${a}_${slug}`, aggregation: a, percentile: null, slug, key: a })),
      ...percentiles.map((p) => ({
        name: `${percentileKey(p)}_${slug}`,
        aggregation: 'percentile' as const,
        percentile: p,
        slug,
        key: percentileKey(p),
      })),
    ],
  };
}

function outputsOf(metrics: readonly FeedbackMetricSpec[]) {
  const values: PayloadValue[] = [];
  const outputs: Output[] = [];
  const slugs = new Map<string, string>();
  metrics.forEach((m, i) => {
    const r = metricOutputs(m, i);
    const slug = slugOf(m.json_path);
    const other = slugs.get(slug);
    if (other !== undefined)
      throw new InvalidRequestError(
        `metrics[${i}]: ${JSON.stringify(m.json_path)} and ${JSON.stringify(other)} name the same columns (${slug})`,
      );
    slugs.set(slug, m.json_path);
    values.push(r.value);
    outputs.push(...r.outputs.map((o) => ({ ...o, value: values.length - 1 })));
  });
  return { values, outputs };
}

export async function feedbackStats(store: FeedbackAnalyticsStore, req: FeedbackStatsReq, now: Micros) {
  const window = feedbackWindow(req, now);
  const { values, outputs } = outputsOf(req.metrics ?? []);
  const timezone = req.timezone ?? 'UTC';
  const granularity = statsGranularity(window.start, window.end, req.granularity);
  const width = granularity * SECOND;
  const origin = alignedOrigin(window.start, width, timezone);
  const head = { start: formatTimestamp(window.start), end: formatTimestamp(window.end), granularity, timezone };
  if (outputs.length === 0) return { ...head, buckets: [], window_stats: null };

  const result = await store.stats({ ...window, origin, width, values, outputs });
  const byBucket = new Map(result.buckets.map((b) => [b.bucket, b]));
  const buckets: Record<string, unknown>[] = [];
  for (let b = 0; b < bucketCount(origin, window.end, width); b++) {
    const cell = byBucket.get(b);
    const row: Record<string, unknown> = { timestamp: formatTimestamp(origin + b * width) };
    for (const o of outputs) {
      const v = cell?.values[o.name] ?? null;
      row[o.name] = v === null ? (ZERO_IN_BUCKET.test(o.aggregation) ? 0 : null) : readable(v);
    }
    row.count = cell?.count ?? 0;
    buckets.push(row);
  }
  const window_stats: Record<string, Record<string, number | null>> = {};
  for (const o of outputs) {
    const v = result.window[o.name] ?? null;
    (window_stats[o.slug] ??= {})[o.key] = v === null ? (COUNTS.test(o.aggregation) ? 0 : null) : readable(v);
  }
  return { ...head, buckets, window_stats };
}
