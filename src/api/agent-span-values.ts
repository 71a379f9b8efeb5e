// What the agent span aggregations read and how they fold it (Weave's AgentSpanValueRef and
// AgentSpanMeasureSpec): shared by /agents/spans/stats metrics, the measures and group filters
// of /agents/spans/query and the numeric buckets of the stats. Only shapes here; the rules
// tying a value's type to its aggregations live in service/agents/span-values.ts.
import { Type } from 'typebox';
import { Nullable, Strict } from './common.js';
import { Query } from './query.js';

export const STATS_AGGREGATIONS = [
  'sum',
  'avg',
  'min',
  'max',
  'count',
  'count_distinct',
  'count_true',
  'count_false',
] as const;
export type StatsAggregation = (typeof STATS_AGGREGATIONS)[number];
export const STATS_VALUE_TYPES = ['datetime', 'number', 'boolean', 'string'] as const;
export type StatsValueType = (typeof STATS_VALUE_TYPES)[number];
export const STATS_DERIVED = ['duration_ms', 'total_tokens', 'is_error', 'is_invocation'] as const;
export const CUSTOM_ATTR_SOURCES = [
  'custom_attrs_string',
  'custom_attrs_int',
  'custom_attrs_float',
  'custom_attrs_bool',
] as const;

export const literals = <const T extends readonly string[]>(values: T) => Type.Enum(values);
/** Weave's _IDENT_RE: aliases become keys of rows and metrics. */
export const Identifier = Type.String({ pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', maxLength: 100 });

export const AgentSpanValueRef = Strict({
  source: Type.Optional(literals(['field', 'derived', ...CUSTOM_ATTR_SOURCES])),
  key: Type.String({ minLength: 1, maxLength: 500 }),
});

/** One aggregation of a value over the spans `filter` keeps (a measure, or a group filter's figure). */
export const AgentSpanMeasureSpec = Strict({
  alias: Identifier,
  aggregation: literals(STATS_AGGREGATIONS),
  value: Type.Optional(Nullable(AgentSpanValueRef)),
  value_type: Type.Optional(Nullable(literals(STATS_VALUE_TYPES))),
  filter: Type.Optional(Nullable(Query)),
});
