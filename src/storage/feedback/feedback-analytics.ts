// What the engines answer for the feedback analytics routes (api/feedback-analytics.ts), engine
// neutral: the service validates and shapes, the engines filter and aggregate. Times are
// microseconds since the epoch; every filter is on stored columns (deleted rows are gone).
// Also shared by the engines: the dimensions' allow-list and the shaping of stats rows.
import type { Micros } from '../../time.js';

/** The rows of a project created in [start, end), optionally of one type and trigger. */
export interface FeedbackWindow {
  readonly projectId: string;
  readonly start: Micros;
  readonly end: Micros;
  readonly feedbackType: string | null;
  /** trigger_ref equal to `value`, or starting with it when `prefix`. */
  readonly triggerRef: { readonly value: string; readonly prefix: boolean } | null;
}

/**
 * A payload value at a path of keys (never array indexes): numeric = a JSON number, boolean =
 * JSON true (1) or false (0), categorical = a JSON string; anything else is no value.
 */
export interface PayloadValue {
  readonly keys: readonly string[];
  readonly type: 'numeric' | 'boolean' | 'categorical';
}

/** One output column: an aggregation (or percentile, 0-100) of `values[value]` over the rows that have it. */
export interface FeedbackStatsOutput {
  readonly name: string;
  readonly value: number;
  readonly aggregation: 'sum' | 'avg' | 'min' | 'max' | 'count' | 'count_true' | 'count_false' | 'percentile';
  readonly percentile: number | null;
}

/** Rows bucketed as floor((created_at - origin) / width); origin <= start. */
export interface FeedbackStatsQuery extends FeedbackWindow {
  readonly origin: Micros;
  readonly width: Micros;
  readonly values: readonly PayloadValue[];
  readonly outputs: readonly FeedbackStatsOutput[];
}

export interface FeedbackStatsResult {
  /** Only the buckets holding rows: their index, row count and outputs (null: no value). */
  readonly buckets: readonly { bucket: number; count: number; values: Record<string, number | null> }[];
  /** The outputs over the whole window. */
  readonly window: Record<string, number | null>;
}

/** An object id of a ref (the last path segment, before ':'): equal to `value`, or starting with it when `prefix`. */
export interface ObjectIdMatch {
  readonly value: string;
  readonly prefix: boolean;
}

/**
 * The group_by dimensions: each names a column of the rows the engines aggregate (scorer_id is
 * derived there from runnable_ref). The allow-list of the identifiers a dimension prints as.
 */
export const FEEDBACK_DIMENSIONS = ['scorer_id', 'span_agent_name', 'span_agent_version', 'span_status_code'] as const;
export type FeedbackDimension = (typeof FEEDBACK_DIMENSIONS)[number];

/** The column of a dimension; anything off the allow-list is a programming error, never printed. */
export function dimensionColumn(d: FeedbackDimension): string {
  if (!FEEDBACK_DIMENSIONS.includes(d)) throw new Error(`not a feedback dimension: ${JSON.stringify(d)}`);
  return d;
}

/** Rows created in [after, before) passing every non-empty filter (lists: any of). */
export interface FeedbackAggregateQuery {
  readonly projectId: string;
  readonly after: Micros;
  readonly before: Micros;
  /** Buckets start at multiples of the width since the epoch (UTC); null: no bucket. */
  readonly width: Micros | null;
  readonly feedbackTypePrefixes: readonly string[];
  readonly tags: readonly string[];
  /** On scorer_ratings._rating_; rows without it fail either bound. */
  readonly ratingMin: number | null;
  readonly ratingMax: number | null;
  readonly monitorIds: readonly ObjectIdMatch[];
  readonly scorerIds: readonly ObjectIdMatch[];
  readonly spanAgentNames: readonly string[];
  /** The second-to-last path segment of weave_ref. */
  readonly spanTypes: readonly string[];
  readonly groupBy: readonly FeedbackDimension[];
}

/** One (bucket, group) holding rows; `group` in groupBy order. */
export interface FeedbackAggregateCell {
  readonly bucket: Micros | null;
  readonly group: readonly string[];
  readonly total: number;
  /** Rows with any tag or rating. */
  readonly scored: number;
  readonly tagCounts: Record<string, number>;
  readonly ratingCounts: Record<string, number>;
  /** May leave out a key whose sum is 0 (ClickHouse's sumMap does). */
  readonly ratingSums: Record<string, number>;
}

/** The latest payload of each distinct trigger_ref (null is one), the most recent first, at most `limit`. */
export interface FeedbackSampleQuery extends FeedbackWindow {
  readonly limit: number;
}

export interface FeedbackAnalyticsStore {
  stats(q: FeedbackStatsQuery): Promise<FeedbackStatsResult>;
  aggregate(q: FeedbackAggregateQuery): Promise<FeedbackAggregateCell[]>;
  payloadSamples(q: FeedbackSampleQuery): Promise<unknown[]>;
}

type StatsRow = Record<string, unknown>;
const toNumber = (x: unknown) => (x === null || x === undefined ? null : Number(x));

/** A stats answer from the engines' rows: bucket `b`, count `n` and outputs `o0`, `o1`... by position. */
export function statsResult(
  outputs: readonly FeedbackStatsOutput[],
  bucketed: readonly StatsRow[],
  whole: StatsRow | undefined,
): FeedbackStatsResult {
  const valuesOf = (r: StatsRow | undefined) =>
    Object.fromEntries(outputs.map((o, i) => [o.name, toNumber(r?.[`o${i}`])]));
  return {
    buckets: bucketed.map((r) => ({ bucket: Number(r.b), count: Number(r.n), values: valuesOf(r) })),
    window: valuesOf(whole),
  };
}
