// /agents/spans/stats: chart-ready aggregations over agent spans (Weave's AgentSpanStatsReq /
// AgentSpanStatsRes): one row per time bucket (and per group of the top groups), each metric
// as `{aggregation}_{alias}` and each percentile as `p{n}_{alias}`.
import { Type } from 'typebox';
import { AgentGroupByRef } from './agent-group-by.js';
import { DateTime, Nullable, ProjectId, SafeInteger, Strict } from './common.js';
import { List } from './limits.js';
import { Query } from './query.js';
import { defineRoute, type RouteSpec } from './route-spec.js';

/** Weave's DEFAULT_AGENT_STATS_GROUP_LIMIT, MAX_AGENT_STATS_GROUP_LIMIT and MAX_AGENT_STATS_RANGE_DAYS. */
export const STATS_GROUP_LIMIT = { default: 50, max: 1000 } as const;
export const STATS_MAX_RANGE_DAYS = 31;
export const STATS_MAX_ROWS = 10_000;

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

const literals = <const T extends readonly string[]>(values: T) => Type.Enum(values);

export const AgentSpanValueRef = Strict({
  source: Type.Optional(
    literals([
      'field',
      'derived',
      'custom_attrs_string',
      'custom_attrs_int',
      'custom_attrs_float',
      'custom_attrs_bool',
    ]),
  ),
  key: Type.String({ minLength: 1, maxLength: 500 }),
});

export const AgentSpanStatsMetricSpec = Strict({
  alias: Type.String({ pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', maxLength: 100 }),
  value_type: literals(STATS_VALUE_TYPES),
  aggregations: Type.Optional(List(literals(STATS_AGGREGATIONS), 8)),
  percentiles: Type.Optional(List(Type.Number({ minimum: 0, maximum: 100 }), 20)),
  value: AgentSpanValueRef,
});

/** A measure of grouped /agents/spans/query: one aggregation, over the spans `filter` keeps. */
export const AgentSpanMeasureSpec = Strict({
  alias: Type.String({ pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', maxLength: 100 }),
  aggregation: literals(STATS_AGGREGATIONS),
  value: Type.Optional(Nullable(AgentSpanValueRef)),
  value_type: Type.Optional(Nullable(literals(STATS_VALUE_TYPES))),
  filter: Type.Optional(Nullable(Query)),
});

export const AgentSpanStatsReq = Strict({
  project_id: ProjectId,
  query: Type.Optional(Nullable(Query)),
  start: DateTime,
  end: Type.Optional(Nullable(DateTime)),
  granularity: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 366 * 86_400 }))),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  group_by: Type.Optional(List(AgentGroupByRef, 10)),
  metrics: Type.Optional(List(AgentSpanStatsMetricSpec, 50)),
  group_limit: Type.Optional(Type.Integer({ minimum: 1, maximum: STATS_GROUP_LIMIT.max })),
  bucket_by: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
  group_filters: Type.Optional(List(Type.Unknown(), 100)),
  signal_filters: Type.Optional(Nullable(Type.Unknown())),
  insight_filters: Type.Optional(List(Type.Unknown(), 100)),
});

export const AgentSpanStatsColumn = Type.Object({
  name: Type.String(),
  role: literals(['time', 'bucket', 'group', 'metric']),
  value_type: literals(STATS_VALUE_TYPES),
  metric: Nullable(Type.String()),
  aggregation: Nullable(Type.String()),
});

export const AgentSpanStatsRes = Type.Object({
  start: DateTime,
  end: DateTime,
  granularity: Nullable(SafeInteger()),
  timezone: Type.String(),
  bucket_type: literals(['time', 'number']),
  columns: Type.Array(AgentSpanStatsColumn),
  rows: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});

export const statsRoutes = {
  agentSpanStats: defineRoute({
    access: 'read',
    id: 'agents_spans_stats',
    method: 'POST',
    path: '/agents/spans/stats',
    tag: 'Agents',
    summary: 'Chart-ready aggregations of agent spans per time bucket, optionally per group',
    body: AgentSpanStatsReq,
    response: AgentSpanStatsRes,
    errors: [400],
  }),
} as const satisfies Record<string, RouteSpec>;
