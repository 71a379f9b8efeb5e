// /agents/spans/stats: chart-ready aggregations over agent spans (Weave's AgentSpanStatsReq /
// AgentSpanStatsRes): one row per time bucket (and per group of the top groups), each metric
// as `{aggregation}_{alias}` and each percentile as `p{n}_{alias}`.
import { Type } from 'typebox';
import { AgentGroupByRef } from './agent-group-by.js';
import { DateTime, Nullable, ProjectId, SafeInteger, Strict } from './common.js';
import { List } from './limits.js';
import { Query } from './query.js';
import { defineRoute, type RouteSpec } from './route-spec.js';
import { AgentSpanValueRef, Identifier, STATS_AGGREGATIONS, STATS_VALUE_TYPES, literals } from './agent-span-values.js';
import {
  AgentInsightFilter,
  AgentSignalFilter,
  AgentSpanGroupFilter,
  AgentSpanStatsBucketSpec,
} from './agent-span-filters.js';

export {
  AgentSpanMeasureSpec,
  AgentSpanValueRef,
  STATS_AGGREGATIONS,
  STATS_DERIVED,
  STATS_VALUE_TYPES,
  type StatsAggregation,
  type StatsValueType,
} from './agent-span-values.js';

/** Weave's DEFAULT_AGENT_STATS_GROUP_LIMIT, MAX_AGENT_STATS_GROUP_LIMIT and MAX_AGENT_STATS_RANGE_DAYS. */
export const STATS_GROUP_LIMIT = { default: 50, max: 1000 } as const;
export const STATS_MAX_RANGE_DAYS = 31;
export const STATS_MAX_ROWS = 10_000;

export const AgentSpanStatsMetricSpec = Strict({
  alias: Identifier,
  value_type: literals(STATS_VALUE_TYPES),
  aggregations: Type.Optional(List(literals(STATS_AGGREGATIONS), 8)),
  percentiles: Type.Optional(List(Type.Number({ minimum: 0, maximum: 100 }), 20)),
  value: AgentSpanValueRef,
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
  bucket_by: Type.Optional(Nullable(AgentSpanStatsBucketSpec)),
  group_filters: Type.Optional(List(AgentSpanGroupFilter, 100)),
  signal_filters: Type.Optional(Nullable(AgentSignalFilter)),
  insight_filters: Type.Optional(List(AgentInsightFilter, 100)),
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
