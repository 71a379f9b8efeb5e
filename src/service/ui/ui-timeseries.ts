// The monitor's time series: calls, errors, latency percentiles, tokens and cost per time
// bucket, over EVERY call matching a calls filter (the same CallsFilter and $expr as
// /calls/stream_query and /calls/query_stats), computed here rather than in the browser.
//
// Why aggregated here and not in SQL: exact percentiles need every latency of a bucket, and
// cost needs the price in force when each call started, chosen as include_costs chooses it
// (cost-summary.ts), neither of which SQLite's aggregates give. The store streams four small
// columns per call from a reader thread (CallStore.metricRows) and one pass here does the
// rest. Measured on the benchmark's data (a shared 2-core machine): 100,000 calls in 1.2 s
// (their 10,500 trace roots in 0.2 s), 1,000,000 in ~10 s (roots 1.6 s); a GROUP BY of counts,
// errors and tokens alone takes about a third of that, but can give neither percentiles nor
// cost. Memory: 16 bytes per ended call (its latency, per bucket and for the totals).
import { InvalidRequestError } from '../../api/errors.js';
import {
  MAX_TIMESERIES_BUCKETS,
  type UiTimeseriesBucket,
  type UiTimeseriesReq,
  type UiTimeseriesRes,
  type UiTimeseriesTotals,
} from '../../api/ui.js';
import { compileCallsQuery } from '../../query/compile-calls-query.js';
import type { CallMetricRow } from '../../storage/calls/call-store.js';
import type { CallsQuery } from '../../query/calls-query.js';
import type { Store } from '../../storage/store.js';
import { formatTimestamp, parseTimestamp, type Micros } from '../../time.js';
import { createUsageCostMeter, type UsageCostMeter } from '../costs/usage-cost-meter.js';
import { usageTokens } from '../costs/llm-usage.js';

/** Round bucket widths, in seconds, from which the default is picked. */
export const BUCKET_STEPS: readonly number[] = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800,
  2_592_000,
];
/** The default bucket is the smallest round step giving at most this many buckets (so 48 to 120 up to spans of months). */
export const TARGET_BUCKETS = 120;

const US = 1_000_000;

/** The smallest step of BUCKET_STEPS giving at most TARGET_BUCKETS buckets over `spanUs`; whole days beyond. */
export function autoBucketSeconds(spanUs: Micros): number {
  const seconds = spanUs / US;
  const step = BUCKET_STEPS.find((s) => seconds / s <= TARGET_BUCKETS);
  return step ?? Math.ceil(seconds / TARGET_BUCKETS / 86_400) * 86_400;
}

/**
 * Exact percentile by nearest rank: the smallest value with at least p% of the values at or
 * below it (sorted ascending; null when empty). Always a latency that was observed.
 */
export function percentile(sorted: Float64Array, p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Latencies of one bucket: a growable Float64Array (numbers sort and copy faster typed). */
class Latencies {
  values = new Float64Array(16);
  length = 0;
  push(v: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = v;
  }
  sorted(): Float64Array {
    return this.values.subarray(0, this.length).sort();
  }
}

interface Window {
  readonly from: Micros;
  readonly to: Micros;
  readonly bucketUs: number;
  /** Start of the first bucket: `from` rounded down to a multiple of the bucket width. */
  readonly first: Micros;
  readonly count: number;
}

function bucketsOf(from: Micros, to: Micros, bucketSeconds: number): Window {
  const bucketUs = bucketSeconds * US;
  const first = Math.floor(from / bucketUs) * bucketUs;
  const count = Math.max(1, Math.ceil((to - first) / bucketUs));
  if (count > MAX_TIMESERIES_BUCKETS) {
    throw new InvalidRequestError(
      `The window holds ${count} buckets of ${bucketSeconds} s; at most ${MAX_TIMESERIES_BUCKETS} are allowed: give a larger bucket_seconds or a shorter window`,
    );
  }
  return { from, to, bucketUs, first, count };
}

/**
 * The window and its buckets. A bound not given is taken from the matching calls (the first
 * start; just after the last start) and then rounded outward to whole buckets, which keeps
 * exactly the same calls; a given bound is kept as given. Null: no call, and no window given.
 */
async function windowOf(store: Store, req: UiTimeseriesReq, q: CallsQuery): Promise<Window | null> {
  const from = req.from != null ? parseTimestamp(req.from, 'from') : null;
  const to = req.to != null ? parseTimestamp(req.to, 'to') : null;
  if (from !== null && to !== null && from >= to) throw new InvalidRequestError('from must be before to');
  if (from !== null && to !== null) return bucketsOf(from, to, req.bucket_seconds ?? autoBucketSeconds(to - from));
  const range = await store.calls.startedRange(q, from, to);
  if (range.first === null || range.last === null) return null;
  const lo = from ?? range.first;
  const hi = to ?? range.last + 1;
  const bucketSeconds = req.bucket_seconds ?? autoBucketSeconds(hi - lo);
  const bucketUs = bucketSeconds * US;
  const snappedFrom = from ?? Math.floor(lo / bucketUs) * bucketUs;
  const snappedTo = to ?? Math.ceil(hi / bucketUs) * bucketUs;
  return bucketsOf(snappedFrom, snappedTo, bucketSeconds);
}

const emptyTotals = (): UiTimeseriesTotals => ({
  calls: 0,
  errors: 0,
  latency_p50_ms: null,
  latency_p95_ms: null,
  tokens: 0,
  cost_usd: 0,
});

/** Sums per bucket, fed chunk by chunk, in any order of calls. */
function createBuckets(w: Window, meter: UsageCostMeter) {
  const calls = new Uint32Array(w.count);
  const errors = new Uint32Array(w.count);
  const tokens = new Float64Array(w.count);
  const cost = new Float64Array(w.count);
  const latencies = Array.from({ length: w.count }, () => new Latencies());
  const all = new Latencies();
  return {
    async add(rows: readonly CallMetricRow[]): Promise<void> {
      // Usage first, for the whole chunk: the prices of new llm_ids are then read in one go.
      const usages = rows.map((r) => (r[3] === null ? null : (JSON.parse(r[3]) as unknown)));
      await meter.load(usages.flatMap((u) => (typeof u === 'object' && u !== null ? Object.keys(u) : [])));
      rows.forEach(([startedAt, endedAt, error, usageJson], k) => {
        const i = Math.floor((startedAt - w.first) / w.bucketUs);
        calls[i]!++;
        errors[i]! += error;
        if (endedAt !== null) {
          const ms = (endedAt - startedAt) / 1000;
          latencies[i]!.push(ms);
          all.push(ms);
        }
        if (usageJson !== null) {
          tokens[i]! += usageTokens({ usage: usages[k] }) ?? 0;
          cost[i]! += meter.cost(usageJson, startedAt);
        }
      });
    },
    result(): { buckets: UiTimeseriesBucket[]; totals: UiTimeseriesTotals } {
      const buckets: UiTimeseriesBucket[] = [];
      const totals = emptyTotals();
      for (let i = 0; i < w.count; i++) {
        const sorted = latencies[i]!.sorted();
        buckets.push({
          start: formatTimestamp(w.first + i * w.bucketUs),
          calls: calls[i]!,
          errors: errors[i]!,
          latency_p50_ms: percentile(sorted, 50),
          latency_p95_ms: percentile(sorted, 95),
          tokens: tokens[i]!,
          cost_usd: cost[i]!,
        });
        totals.calls += calls[i]!;
        totals.errors += errors[i]!;
        totals.tokens += tokens[i]!;
        totals.cost_usd += cost[i]!;
      }
      const sortedAll = all.sorted();
      totals.latency_p50_ms = percentile(sortedAll, 50);
      totals.latency_p95_ms = percentile(sortedAll, 95);
      return { buckets, totals };
    },
  };
}

/** `signal`: the caller is gone; the read stops at the next chunk (what was counted is answered, to nobody). */
export async function callsTimeseries(
  store: Store,
  req: UiTimeseriesReq,
  signal?: AbortSignal,
): Promise<UiTimeseriesRes> {
  const q = compileCallsQuery({
    project_id: req.project_id,
    filter: req.filter ?? null,
    query: req.query ?? null,
    sort_by: [],
  });
  const w = await windowOf(store, req, q);
  if (w === null) {
    const from = req.from != null ? formatTimestamp(parseTimestamp(req.from, 'from')) : null;
    const to = req.to != null ? formatTimestamp(parseTimestamp(req.to, 'to')) : null;
    return { bucket_seconds: req.bucket_seconds ?? BUCKET_STEPS[0]!, from, to, buckets: [], totals: emptyTotals() };
  }
  const sums = createBuckets(w, createUsageCostMeter(store.costs, req.project_id));
  for await (const rows of store.calls.metricRows(q, w.from, w.to)) {
    if (signal?.aborted) break;
    await sums.add(rows);
  }
  return {
    bucket_seconds: w.bucketUs / US,
    from: formatTimestamp(w.from),
    to: formatTimestamp(w.to),
    ...sums.result(),
  };
}
