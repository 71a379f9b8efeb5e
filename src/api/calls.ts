// Request and response schemas of the call endpoints (weave-api.md §1.3-1.10).
import { Type, type Static } from 'typebox';
import {
  AnyObject,
  AnyValue,
  DateTime,
  EmptyRes,
  Limit,
  Nullable,
  Offset,
  ProjectId,
  SafeInteger,
  SortBy,
  Strict,
} from './common.js';
import { Query } from './query.js';
import {
  DataList,
  List,
  MAX_COLUMNS,
  MAX_DELETE_CALLS,
  MAX_FILTER_LENGTH,
  MAX_NAMES,
  TOO_MANY_STATUS,
} from './limits.js';
import { defineRoute } from './route-spec.js';

const IdList = Nullable(List(Type.String(), MAX_FILTER_LENGTH));

// Nested insert models are lenient (unknown keys ignored): the TS SDK sends display_name in ends.
export const StartedCallSchemaForInsert = Type.Object({
  project_id: ProjectId,
  id: Nullable(Type.String({ minLength: 1 })),
  op_name: Type.String({ minLength: 1 }),
  display_name: Nullable(Type.String()),
  trace_id: Nullable(Type.String({ minLength: 1 })),
  parent_id: Nullable(Type.String()),
  thread_id: Nullable(Type.String()),
  turn_id: Nullable(Type.String()),
  started_at: DateTime,
  attributes: AnyObject,
  inputs: AnyObject,
  otel_dump: Nullable(AnyObject),
  wb_user_id: Nullable(Type.String({ description: 'Ignored: the server sets it from the caller' })),
  wb_run_id: Nullable(Type.String()),
  wb_run_step: Nullable(SafeInteger()),
});
export type StartedCallSchemaForInsert = Static<typeof StartedCallSchemaForInsert>;

const TokenCount = Nullable(SafeInteger());

/**
 * Token counts of one model (Weave's LLMUsageSchema): each a whole number or null; other keys
 * (prompt_tokens_details, cache counts...) are kept as sent.
 */
export const LLMUsageSchema = Type.Object({
  prompt_tokens: TokenCount,
  input_tokens: TokenCount,
  completion_tokens: TokenCount,
  output_tokens: TokenCount,
  requests: TokenCount,
  total_tokens: TokenCount,
});

/** Calls per status below a call (Weave's dict[TraceStatus, int]): only these keys, whole numbers. */
export const StatusCounts = Type.Object(
  {
    success: Type.Optional(SafeInteger()),
    error: Type.Optional(SafeInteger()),
    running: Type.Optional(SafeInteger()),
    descendant_error: Type.Optional(SafeInteger()),
  },
  { additionalProperties: false },
);

/** Weave's SummaryInsertMap: typed `usage` and `status_counts`, any other key as sent. */
export const SummaryInsertMap = Type.Object({
  usage: Type.Optional(Type.Record(Type.String(), LLMUsageSchema)),
  status_counts: Type.Optional(StatusCounts),
});

export const EndedCallSchemaForInsert = Type.Object({
  project_id: ProjectId,
  id: Type.String({ minLength: 1 }),
  ended_at: DateTime,
  exception: Nullable(Type.String()),
  output: Type.Optional(AnyValue),
  summary: SummaryInsertMap,
  wb_run_step_end: Nullable(SafeInteger()),
});
export type EndedCallSchemaForInsert = Static<typeof EndedCallSchemaForInsert>;

export const CallStartReq = Strict({ start: StartedCallSchemaForInsert });
export type CallStartReq = Static<typeof CallStartReq>;
export const CallStartRes = Type.Object({ id: Type.String(), trace_id: Type.String() });
export const CallEndReq = Strict({ end: EndedCallSchemaForInsert });
export type CallEndReq = Static<typeof CallEndReq>;

/** One batch item: `mode` is "start" or "end" (inferred from `req` when absent). */
export const CallBatchItem = Type.Object({
  mode: Nullable(Type.String()),
  req: Type.Object({ start: Type.Optional(StartedCallSchemaForInsert), end: Type.Optional(EndedCallSchemaForInsert) }),
});
export type CallBatchItem = Static<typeof CallBatchItem>;
export const CallCreateBatchReq = Strict({ batch: DataList(CallBatchItem) });
export type CallCreateBatchReq = Static<typeof CallCreateBatchReq>;
export const CallCreateBatchRes = Type.Object({ res: Type.Array(Type.Union([CallStartRes, EmptyRes])) });

export const CallUpdateReq = Strict({
  project_id: ProjectId,
  call_id: Type.String({ minLength: 1 }),
  display_name: Nullable(Type.String()),
  wb_user_id: Nullable(Type.String()),
});
export type CallUpdateReq = Static<typeof CallUpdateReq>;

export const CallSchema = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  op_name: Type.String(),
  display_name: Nullable(Type.String()),
  trace_id: Type.String(),
  parent_id: Nullable(Type.String()),
  thread_id: Nullable(Type.String()),
  turn_id: Nullable(Type.String()),
  started_at: DateTime,
  attributes: AnyObject,
  inputs: AnyObject,
  ended_at: Nullable(DateTime),
  exception: Nullable(Type.String()),
  output: Type.Optional(AnyValue),
  summary: Type.Optional(AnyObject),
  wb_user_id: Nullable(Type.String()),
  wb_username: Nullable(Type.String()),
  wb_run_id: Nullable(Type.String()),
  wb_run_step: Nullable(Type.Integer()),
  wb_run_step_end: Nullable(Type.Integer()),
  deleted_at: Nullable(DateTime),
  expire_at: Nullable(DateTime),
  storage_size_bytes: Nullable(Type.Integer()),
  total_storage_size_bytes: Nullable(Type.Integer()),
});
export type CallSchema = Static<typeof CallSchema>;

export const CallReadReq = Strict({
  project_id: ProjectId,
  id: Type.String({ minLength: 1, description: 'Call identifier' }),
  include_costs: Nullable(Type.Boolean({ default: false })),
  include_storage_size: Nullable(Type.Boolean({ default: false })),
  include_total_storage_size: Nullable(Type.Boolean({ default: false })),
});
export type CallReadReq = Static<typeof CallReadReq>;
export const CallReadRes = Type.Object({ call: Type.Union([CallSchema, Type.Null()]) });

export const CallsFilter = Strict({
  op_names: IdList,
  input_refs: IdList,
  output_refs: IdList,
  parent_ids: IdList,
  trace_ids: IdList,
  call_ids: IdList,
  thread_ids: IdList,
  turn_ids: IdList,
  trace_roots_only: Nullable(Type.Boolean()),
  wb_user_ids: IdList,
  wb_run_ids: IdList,
});
export type CallsFilter = Static<typeof CallsFilter>;

export const CallsQueryReq = Strict({
  project_id: ProjectId,
  filter: Nullable(CallsFilter),
  limit: Limit,
  offset: Offset,
  sort_by: Nullable(
    List(SortBy, MAX_NAMES, {
      description:
        'Weft also sorts by summary.weave.total_tokens and summary.weave.total_cost (first term only; calls without them last) and feedback.[<type>].count',
    }),
  ),
  query: Nullable(Query),
  include_costs: Nullable(Type.Boolean({ default: false })),
  include_feedback: Nullable(Type.Boolean({ default: false })),
  include_storage_size: Nullable(Type.Boolean({ default: false })),
  include_total_storage_size: Nullable(Type.Boolean({ default: false })),
  include_usernames: Nullable(Type.Boolean({ default: false })),
  columns: Nullable(List(Type.String(), MAX_COLUMNS)),
  expand_columns: Nullable(List(Type.String(), MAX_NAMES)),
  return_expanded_column_values: Nullable(Type.Boolean({ default: true })),
});
export type CallsQueryReq = Static<typeof CallsQueryReq>;
export const CallsQueryRes = Type.Object({ calls: Type.Array(CallSchema) });

export const CallsQueryStatsReq = Strict({
  project_id: ProjectId,
  filter: Nullable(CallsFilter),
  query: Nullable(Query),
  limit: Limit,
  include_total_storage_size: Nullable(Type.Boolean({ default: false })),
  expand_columns: Nullable(List(Type.String(), MAX_NAMES)),
});
export type CallsQueryStatsReq = Static<typeof CallsQueryStatsReq>;
export const CallsQueryStatsRes = Type.Object({
  count: Type.Integer(),
  total_storage_size_bytes: Nullable(Type.Integer()),
});

export const CallsDeleteReq = Strict({
  project_id: ProjectId,
  call_ids: List(Type.String(), MAX_DELETE_CALLS, { [TOO_MANY_STATUS]: 413 }),
  wb_user_id: Nullable(Type.String()),
});
export type CallsDeleteReq = Static<typeof CallsDeleteReq>;
export const CallsDeleteRes = Type.Object({ num_deleted: Type.Integer() });

const tag = 'Calls';
export const callsRoutes = {
  callStart: defineRoute({
    access: 'write',
    id: 'call_start',
    method: 'POST',
    path: '/call/start',
    tag,
    summary: 'Start a call',
    carriesData: true,
    body: CallStartReq,
    response: CallStartRes,
    errors: [400, 503],
  }),
  callEnd: defineRoute({
    access: 'write',
    id: 'call_end',
    method: 'POST',
    path: '/call/end',
    tag,
    summary: 'End a call',
    carriesData: true,
    body: CallEndReq,
    response: EmptyRes,
    errors: [400, 503],
  }),
  callUpsertBatch: defineRoute({
    access: 'write',
    id: 'call_start_batch',
    method: 'POST',
    path: '/call/upsert_batch',
    tag,
    summary: 'Write call starts and ends in order',
    carriesData: true,
    body: CallCreateBatchReq,
    response: CallCreateBatchRes,
    errors: [400, 413, 503],
  }),
  callUpdate: defineRoute({
    access: 'write',
    id: 'call_update',
    method: 'POST',
    path: '/call/update',
    tag,
    summary: 'Update a call (display name)',
    body: CallUpdateReq,
    response: EmptyRes,
    errors: [400],
  }),
  callRead: defineRoute({
    access: 'read',
    id: 'call_read',
    method: 'POST',
    path: '/call/read',
    tag,
    summary: 'Read one call',
    body: CallReadReq,
    response: CallReadRes,
  }),
  callsDelete: defineRoute({
    access: 'write',
    id: 'calls_delete',
    method: 'POST',
    path: '/calls/delete',
    tag,
    summary: 'Delete calls and their descendants',
    body: CallsDeleteReq,
    response: CallsDeleteRes,
    errors: [400, 413],
  }),
  callsQueryStats: defineRoute({
    access: 'read',
    id: 'calls_query_stats',
    method: 'POST',
    path: '/calls/query_stats',
    tag,
    summary: 'Count calls',
    body: CallsQueryStatsReq,
    response: CallsQueryStatsRes,
    errors: [400],
  }),
  callsStreamQuery: defineRoute({
    access: 'read',
    id: 'calls_query_stream',
    method: 'POST',
    path: '/calls/stream_query',
    tag,
    summary: 'Query calls as JSON Lines',
    body: CallsQueryReq,
    response: CallSchema,
    reply: 'jsonl',
    errors: [400],
  }),
  callsQuery: defineRoute({
    access: 'read',
    id: 'calls_query',
    method: 'POST',
    path: '/calls/query',
    tag,
    summary: 'Query calls as one JSON document',
    body: CallsQueryReq,
    response: CallsQueryRes,
    errors: [400],
  }),
} as const;
