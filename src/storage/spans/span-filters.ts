// The grouped options of the agent span reads, as the engines receive them (storage/spans/span-store.ts
// uses these): which conversations a span must belong to (signals), bounds on a group's measure
// (group filters), per-group distributions of custom attributes and numeric histograms.
// Contracts every engine keeps are stated on each type.
import type { Expr, FieldRef } from '../../query/plan.js';
import type { SpanMeasure, StatsOutput, StatsValue } from './span-measures.js';

/**
 * Spans of conversations whose agent feedback (feedback_type wandb.agent_user_feedback or
 * wandb.agent_monitor, by span_conversation_id, at any time) carries, on at least one row, one
 * of `tags` (when any), and for each rating, a row whose scorer_ratings[scorerKey] is a number
 * meeting it (Weave's build_signal_filter_clause). Spans outside any conversation never match.
 */
export interface SpanSignalFilter {
  readonly tags: readonly string[];
  readonly ratings: readonly {
    readonly scorerKey: string;
    readonly op: 'gte' | 'gt' | 'lte' | 'lt' | 'eq';
    readonly value: number;
  }[];
}

/** A group's measure within [min, max] (either may be null: unbounded); times in microseconds. */
export interface SpanGroupBound {
  readonly measure: SpanMeasure;
  readonly min: number | null;
  readonly max: number | null;
}

/**
 * A stats group filter: group the spans (so far kept) by `keys`, keep the spans of the groups
 * whose measures meet every bound. Filters apply one after the other; a NULL key is a group.
 */
export interface SpanGroupFilter {
  readonly keys: readonly FieldRef[];
  readonly bounds: readonly SpanGroupBound[];
}

/** A distribution of one custom attribute per group: numeric (int, float) or categorical (string, bool). */
export interface SpanDistributionSpec {
  readonly alias: string;
  readonly column: 'custom_attrs_string' | 'custom_attrs_int' | 'custom_attrs_float' | 'custom_attrs_bool';
  readonly key: string;
  /** Numeric: the bins; categorical: the most frequent values kept. */
  readonly limit: number;
}

/** The distributions of the spans of these groups (the values of the one key), as the group read filters them. */
export interface SpanDistributionsQuery {
  readonly projectId: string;
  readonly where: Expr | null;
  readonly startedAfter: number | null;
  readonly startedBefore: number | null;
  readonly signals: SpanSignalFilter | null;
  readonly key: FieldRef;
  readonly groups: readonly (string | number | null)[];
  readonly specs: readonly SpanDistributionSpec[];
}

/**
 * Numeric specs: per (group, alias), the present values' bounds and, per bin that holds values,
 * its count; the bin of x is 0 when hi = lo, else min(bins - 1, floor((x - lo) / ((hi - lo) / bins))).
 * Categorical specs: per (group, alias), the `limit` most frequent values (count descending, then
 * value ascending; booleans as 'true' / 'false'), each with the count of all present values.
 */
export interface SpanDistributionsResult {
  readonly numeric: {
    readonly group: string | number | null;
    readonly alias: string;
    readonly lo: number;
    readonly hi: number;
    readonly present: number;
    readonly bin: number;
    readonly count: number;
  }[];
  readonly categorical: {
    readonly group: string | number | null;
    readonly alias: string;
    readonly value: string;
    readonly count: number;
    readonly present: number;
  }[];
}

/**
 * A histogram of one number per row over the spans started in [start, end) that match: per span
 * (`value` present, not NULL) or per group of `keys` (the measure; groups failing `bounds` left
 * out). lo/hi: `min`/`max` when given, else the rows' smallest/largest value; rows outside
 * [lo, hi] are left out of the bins; the bin as in SpanDistributionsResult. Outputs aggregate
 * the spans of a bin (per-span rows) or count its groups (`outputs` empty).
 */
export interface SpanHistogramQuery {
  readonly projectId: string;
  readonly where: Expr | null;
  readonly start: number;
  readonly end: number;
  readonly signals: SpanSignalFilter | null;
  readonly source:
    | { readonly kind: 'value'; readonly value: StatsValue }
    | {
        readonly kind: 'groups';
        readonly keys: readonly FieldRef[];
        readonly measure: SpanMeasure;
        readonly bounds: readonly SpanGroupBound[];
      };
  readonly bins: number;
  readonly min: number | null;
  readonly max: number | null;
  readonly outputs: readonly StatsOutput[];
}

export interface SpanHistogramResult {
  /** Rows with a value (NULL measures of groups count too, as in Weave); lo/hi null without any. */
  readonly rows: number;
  readonly lo: number | null;
  readonly hi: number | null;
  /** Bins that hold rows; `values` by output name (`count` for groups). */
  readonly cells: { readonly bin: number; readonly values: Record<string, number | null> }[];
}
