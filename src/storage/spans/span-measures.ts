// The figures a span read may aggregate: a value (a column, a custom attribute or a derived
// figure), an output (one aggregation of it) and a measure (an output over the spans a filter
// keeps). Shared by the span store's queries and the filters of grouped reads.
import type { Expr } from '../../query/plan.js';

/** A value aggregated by /agents/spans/stats: a scalar span column, a custom attribute, or a derived figure. */
export type StatsValue =
  | { readonly kind: 'column'; readonly name: string }
  | { readonly kind: 'custom'; readonly column: string; readonly key: string }
  | { readonly kind: 'derived'; readonly name: 'duration_ms' | 'total_tokens' | 'is_error' | 'is_invocation' };

/**
 * One output of /agents/spans/stats, over the spans where the value is present: sum, avg, min,
 * max (NULL without any), count, count_distinct, count_true, count_false, or an exact
 * percentile (0-100, linear interpolation between the nearest values; NULL without any).
 */
export interface StatsOutput {
  readonly name: string;
  /** null: the span itself (count only). */
  readonly value: StatsValue | null;
  readonly aggregation: string;
  readonly percentile: number | null;
}

/** A measure: an output (StatsOutput's aggregations; `value` null counts spans) over the spans `filter` keeps. */
export interface SpanMeasure {
  readonly alias: string;
  readonly output: StatsOutput;
  readonly filter: Expr | null;
}
