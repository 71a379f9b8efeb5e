// Feedback analytics (weave-surface-2.md §3.2-3.4): /feedback/stats (payload values per time
// bucket), /feedback/aggregate (agent scorer tags and ratings per bucket and group, the Signals
// trend) and /feedback/payload_schema (the payload paths a chart can plot). Field names and
// defaults are Weave's FeedbackStatsReq, FeedbackAggregateReq and FeedbackPayloadSchemaReq; the
// rules the service checks (ranges, bucket counts, path characters) answer 400.
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, ProjectId, SafeInteger, Strict } from './common.js';
import { List, MAX_FILTER_LENGTH } from './limits.js';
import { defineRoute, type RouteSpec } from './route-spec.js';

/** Weave's limits: a window of at most 31 days, 256 aggregate buckets, 1-5000 sampled payloads. */
export const FEEDBACK_MAX_RANGE_DAYS = 31;
export const FEEDBACK_AGGREGATE_MAX_BUCKETS = 256;
export const PAYLOAD_SAMPLE_LIMIT = { default: 2000, min: 1, max: 5000 } as const;
/** Weave's JSON_PATH_PATTERN: what a payload path may hold (classifier payloads have spaces in keys). */
export const JSON_PATH_PATTERN = /^[a-zA-Z0-9_. ]+$/;

export const FEEDBACK_VALUE_TYPES = ['numeric', 'boolean', 'categorical'] as const;
export type FeedbackValueType = (typeof FEEDBACK_VALUE_TYPES)[number];
export const FEEDBACK_AGGREGATIONS = ['sum', 'avg', 'min', 'max', 'count', 'count_true', 'count_false'] as const;
export type FeedbackAggregation = (typeof FEEDBACK_AGGREGATIONS)[number];
export const AGGREGATE_DIMENSIONS = ['scorer_id', 'span_agent_name', 'span_agent_version', 'span_status_code'] as const;
export type AggregateDimension = (typeof AGGREGATE_DIMENSIONS)[number];
export const AGGREGATE_SPAN_TYPES = ['agent_turn', 'agent_conversation'] as const;

const Names = (description: string) => Type.Optional(Nullable(List(Type.String(), MAX_FILTER_LENGTH, { description })));

/** The filters /feedback/stats and /feedback/payload_schema share (Weave's feedback stats base). */
const windowFields = {
  project_id: ProjectId,
  start: DateTime,
  end: Type.Optional(Nullable(DateTime)),
  feedback_type: Type.Optional(Nullable(Type.String({ description: 'Exact feedback_type' }))),
  trigger_ref: Type.Optional(
    Nullable(Type.String({ description: 'Exact trigger_ref, or every ref starting with it when it ends with ":*"' })),
  ),
};

export const FeedbackMetricSpec = Strict({
  json_path: Type.String({ description: 'Dot path into the payload; only [a-zA-Z0-9_. ]' }),
  value_type: Type.Optional(Type.Enum(FEEDBACK_VALUE_TYPES)),
  aggregations: Type.Optional(
    Nullable(
      List(Type.Enum(FEEDBACK_AGGREGATIONS), FEEDBACK_AGGREGATIONS.length * 2, {
        description: 'Empty: numeric avg, min, max; boolean count_true, count_false; categorical count',
      }),
    ),
  ),
  percentiles: Type.Optional(Nullable(List(Type.Number(), 20, { description: '0-100, numeric values only' }))),
});
export type FeedbackMetricSpec = Static<typeof FeedbackMetricSpec>;

export const FeedbackStatsReq = Strict({
  ...windowFields,
  granularity: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 366 * 86_400 }))),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  metrics: Type.Optional(Nullable(List(FeedbackMetricSpec, 50))),
});
export type FeedbackStatsReq = Static<typeof FeedbackStatsReq>;

export const FeedbackStatsRes = Type.Object({
  start: DateTime,
  end: DateTime,
  granularity: SafeInteger(),
  timezone: Type.String(),
  buckets: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  window_stats: Nullable(
    Type.Record(Type.String(), Type.Record(Type.String(), Type.Union([Type.Number(), Type.Null()]))),
  ),
});

export const FeedbackAggregateReq = Strict({
  project_id: ProjectId,
  after_ms: SafeInteger({ minimum: 0, description: 'Inclusive lower bound on created_at (ms since the epoch)' }),
  before_ms: SafeInteger({ minimum: 0, description: 'Exclusive upper bound on created_at (ms since the epoch)' }),
  time_bucket_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 366 * 86_400 }))),
  feedback_types: Names('feedback_type prefixes (a trailing * is stripped)'),
  tags: Names('Any of these scorer tags'),
  rating_min: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  rating_max: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  monitor_ids: Names("Object ids of trigger_ref (exact; a trailing '*' matches a prefix)"),
  scorer_ids: Names("Object ids of runnable_ref (exact; a trailing '*' matches a prefix)"),
  span_agent_names: Names('Exact span_agent_name values'),
  span_types: Type.Optional(Nullable(List(Type.Enum(AGGREGATE_SPAN_TYPES), 2))),
  group_by: Type.Optional(Nullable(List(Type.Enum(AGGREGATE_DIMENSIONS), AGGREGATE_DIMENSIONS.length))),
});
export type FeedbackAggregateReq = Static<typeof FeedbackAggregateReq>;

export const FeedbackAggregateBucket = Type.Object({
  time_bucket_start_ms: Type.Union([SafeInteger(), Type.Null()]),
  group: Type.Record(Type.String(), Type.String()),
  total_count: SafeInteger({ minimum: 0 }),
  scored_count: SafeInteger({ minimum: 0 }),
  tag_counts: Type.Record(Type.String(), SafeInteger({ minimum: 0 })),
  rating_counts: Type.Record(Type.String(), SafeInteger({ minimum: 0 })),
  rating_sums: Type.Record(Type.String(), Type.Number()),
});
export type FeedbackAggregateBucket = Static<typeof FeedbackAggregateBucket>;

export const FeedbackAggregateRes = Type.Object({
  time_bucket_seconds: Type.Union([SafeInteger(), Type.Null()]),
  after_ms: SafeInteger(),
  before_ms: SafeInteger(),
  buckets: Type.Array(FeedbackAggregateBucket),
});

export const FeedbackPayloadSchemaReq = Strict({
  ...windowFields,
  sample_limit: Type.Optional(
    SafeInteger({
      description: `Payloads sampled (the latest per trigger_ref), ${PAYLOAD_SAMPLE_LIMIT.min}-${PAYLOAD_SAMPLE_LIMIT.max}`,
    }),
  ),
});
export type FeedbackPayloadSchemaReq = Static<typeof FeedbackPayloadSchemaReq>;

export const FeedbackPayloadPath = Type.Object({
  json_path: Type.String(),
  value_type: Type.Enum(FEEDBACK_VALUE_TYPES),
});
export type FeedbackPayloadPath = Static<typeof FeedbackPayloadPath>;
export const FeedbackPayloadSchemaRes = Type.Object({ paths: Type.Array(FeedbackPayloadPath) });

const tag = 'Feedback';
export const feedbackAnalyticsRoutes = {
  feedbackStats: defineRoute({
    access: 'read',
    id: 'feedback_stats',
    method: 'POST',
    path: '/feedback/stats',
    tag,
    summary: 'Aggregations of feedback payload values per time bucket and over the window',
    body: FeedbackStatsReq,
    response: FeedbackStatsRes,
    errors: [400],
  }),
  feedbackAggregate: defineRoute({
    access: 'read',
    id: 'feedback_aggregate',
    method: 'POST',
    path: '/feedback/aggregate',
    tag,
    summary: 'Scorer tag counts and rating sums per time bucket and group',
    body: FeedbackAggregateReq,
    response: FeedbackAggregateRes,
    errors: [400],
  }),
  feedbackPayloadSchema: defineRoute({
    access: 'read',
    id: 'feedback_payload_schema',
    method: 'POST',
    path: '/feedback/payload_schema',
    tag,
    summary: 'The payload paths of recent feedback and the type of their values',
    body: FeedbackPayloadSchemaReq,
    response: FeedbackPayloadSchemaRes,
    errors: [400],
  }),
} as const satisfies Record<string, RouteSpec>;
