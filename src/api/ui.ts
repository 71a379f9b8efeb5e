// Endpoints for Weft's own web UI, under UI_API_PREFIX: not part of the Weave trace-server
// API (so served only at their path, never also under /traces), read with the same API keys.
// The UI's pages themselves are static files (http/routes/ui-routes.ts), not API operations.
import { Type, type Static } from 'typebox';
import { defineRoute } from './route-spec.js';
import { CallsFilter } from './calls.js';
import { DateTime, Nullable, ProjectId, Strict } from './common.js';
import { Query } from './query.js';

/** Where the web UI is served; its pages are client-side routes below it. */
export const UI_PREFIX = '/ui';
/** The UI-only endpoints live here, so no page route of the UI can shadow them. */
export const UI_API_PREFIX = `${UI_PREFIX}/api`;

export const UiProject = Type.Object({
  project_id: Type.String({ description: 'Project, as "<entity>/<project>"' }),
  entity: Type.String(),
  project: Type.String({ description: 'Empty when the project id has no "/"' }),
  call_count: Type.Integer({ minimum: 0, description: 'Live calls: not deleted, not expired' }),
  last_call_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the newest live call started (ISO 8601, UTC); null when the project has objects only',
  }),
});
export type UiProject = Static<typeof UiProject>;

export const UiProjectsRes = Type.Object({
  projects: Type.Array(UiProject, {
    description: 'Newest activity first (projects without calls last), then by project_id',
  }),
});
export type UiProjectsRes = Static<typeof UiProjectsRes>;

/** The trace by its id, or by the id of any of its calls (so a deep link needs no lookup first). */
export const UiTraceTreeReq = Type.Union([
  Strict({ project_id: ProjectId, trace_id: Type.String({ minLength: 1 }) }),
  Strict({
    project_id: ProjectId,
    call_id: Type.String({ minLength: 1, description: 'Any call of the trace; an unknown or deleted call is 404' }),
  }),
]);
export type UiTraceTreeReq = Static<typeof UiTraceTreeReq>;

/** One call of a trace as the tree shows it: no payloads, status and tokens derived. */
export const UiTraceNode = Type.Object({
  id: Type.String(),
  parent_id: Type.Union([Type.String(), Type.Null()]),
  op_name: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  started_at: Type.String({ format: 'date-time' }),
  ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  status: Type.Union([
    Type.Literal('success'),
    Type.Literal('error'),
    Type.Literal('running'),
    Type.Literal('descendant_error'),
  ]),
  tokens: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Total tokens over the models in summary.usage; null: no usage',
  }),
  cost_usd: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description:
      'USD cost of summary.usage at the prices include_costs applies when the call started; null: no usage, or no model of it priced',
  }),
  models: Type.Array(Type.String(), { description: 'The models (llm ids) summary.usage names, in its order' }),
});
export type UiTraceNode = Static<typeof UiTraceNode>;

/** At most this many buckets per answer (a wider window needs a larger bucket_seconds). */
export const MAX_TIMESERIES_BUCKETS = 2000;

export const UiTimeseriesReq = Strict({
  project_id: ProjectId,
  filter: Nullable(CallsFilter),
  query: Nullable(Query),
  from: Nullable(
    Type.String({
      format: 'date-time',
      description:
        "Calls started at or after this instant; default: the first matching call's start, rounded down to a bucket boundary",
    }),
  ),
  to: Nullable(
    Type.String({
      format: 'date-time',
      description:
        "Calls started before this instant; default: just after the last matching call's start, rounded up to a bucket boundary",
    }),
  ),
  bucket_seconds: Nullable(
    Type.Integer({
      minimum: 1,
      maximum: 366 * 86_400,
      description: `Bucket width; default: a round step (1 s, 2 s, 5 s ... 1 min ... 1 h ... 1 d) giving 50 to 120 buckets. A window may hold at most ${MAX_TIMESERIES_BUCKETS} buckets (else 400)`,
    }),
  ),
});
export type UiTimeseriesReq = Static<typeof UiTimeseriesReq>;

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

/** One bucket: the calls whose start falls in [start, start + bucket_seconds) and in the window. */
export const UiTimeseriesBucket = Type.Object({
  start: DateTime,
  calls: Type.Integer({ minimum: 0 }),
  errors: Type.Integer({ minimum: 0, description: "Calls whose status is 'error' (an exception)" }),
  latency_p50_ms: Type.Union([Type.Number(), Type.Null()], {
    description: 'Exact median (nearest rank) of ended_at - started_at over the ended calls; null: none ended',
  }),
  latency_p95_ms: Type.Union([Type.Number(), Type.Null()], {
    description: 'Exact 95th percentile (nearest rank), as latency_p50_ms',
  }),
  tokens: Type.Number({
    minimum: 0,
    description: 'Total tokens over the models in summary.usage (total_tokens, else input + output counts)',
  }),
  cost_usd: Type.Number({
    minimum: 0,
    description: 'Cost of the usage at the prices include_costs applies (USD-priced parts only)',
  }),
});
export type UiTimeseriesBucket = Static<typeof UiTimeseriesBucket>;

export const UiTimeseriesTotals = Type.Object(
  {
    calls: Type.Integer({ minimum: 0 }),
    errors: Type.Integer({ minimum: 0 }),
    latency_p50_ms: NullableNumber,
    latency_p95_ms: NullableNumber,
    tokens: Type.Number({ minimum: 0 }),
    cost_usd: Type.Number({ minimum: 0 }),
  },
  { description: 'The same figures over the whole window (percentiles over all its ended calls)' },
);
export type UiTimeseriesTotals = Static<typeof UiTimeseriesTotals>;

export const UiTimeseriesRes = Type.Object({
  bucket_seconds: Type.Integer({ minimum: 1 }),
  from: Type.Union([DateTime, Type.Null()], {
    description: 'The window: calls started at or after; null when no call matches and none was given',
  }),
  to: Type.Union([DateTime, Type.Null()], { description: 'The window: calls started before' }),
  buckets: Type.Array(UiTimeseriesBucket, {
    description:
      'Every bucket of the window in time order, empty ones included; buckets are aligned to multiples of bucket_seconds since the Unix epoch (UTC)',
  }),
  totals: UiTimeseriesTotals,
});
export type UiTimeseriesRes = Static<typeof UiTimeseriesRes>;

export const UiObjectVersionCountsReq = Strict({
  project_id: ProjectId,
  object_ids: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    maxItems: 1000,
    description: 'The objects to count (an unknown or wholly deleted object counts 0)',
  }),
});
export type UiObjectVersionCountsReq = Static<typeof UiObjectVersionCountsReq>;

export const UiObjectVersionCountsRes = Type.Object({
  counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: 'Live (not deleted) versions per object id asked for, every one of them present',
  }),
});
export type UiObjectVersionCountsRes = Static<typeof UiObjectVersionCountsRes>;

/** At most this many paths are listed (the first, in code-point order). */
export const MAX_CALL_PATHS = 1000;

export const UiCallPathsReq = Strict({
  project_id: ProjectId,
  filter: Nullable(CallsFilter),
  query: Nullable(Query),
});
export type UiCallPathsReq = Static<typeof UiCallPathsReq>;

export const UiCallPathsRes = Type.Object({
  paths: Type.Array(Type.String(), {
    description:
      'Every key path of the matching calls: inputs.<k>, inputs.<k>.<k2>, output.<k>, output.<k>.<k2>, attributes.<k>; keys holding a dot and _type, _class_name, _bases left out; in code-point order',
  }),
  complete: Type.Boolean({
    description: `false when there are more than ${MAX_CALL_PATHS}: only the first are listed`,
  }),
});
export type UiCallPathsRes = Static<typeof UiCallPathsRes>;

const tag = 'Web UI';
export const uiRoutes = {
  projects: defineRoute({
    access: 'read',
    id: 'ui_projects',
    method: 'GET',
    path: `${UI_API_PREFIX}/projects`,
    tag,
    baseOnly: true,
    summary: 'Projects having live calls or objects that the caller may read, with call counts',
    body: undefined,
    response: UiProjectsRes,
  }),
  traceTree: defineRoute({
    access: 'read',
    id: 'ui_trace_tree',
    method: 'POST',
    path: `${UI_API_PREFIX}/trace_tree`,
    tag,
    baseOnly: true,
    reply: 'jsonl',
    summary: "A trace's calls without payloads (JSON Lines, by start time): the skeleton the trace view streams",
    body: UiTraceTreeReq,
    response: UiTraceNode,
    errors: [404],
  }),
  timeseries: defineRoute({
    access: 'read',
    id: 'ui_calls_timeseries',
    method: 'POST',
    path: `${UI_API_PREFIX}/calls/timeseries`,
    tag,
    baseOnly: true,
    errors: [400],
    summary:
      'Calls, errors, latency percentiles, tokens and cost per time bucket over every call matching a calls filter',
    body: UiTimeseriesReq,
    response: UiTimeseriesRes,
  }),
  objectVersionCounts: defineRoute({
    access: 'read',
    id: 'ui_object_version_counts',
    method: 'POST',
    path: `${UI_API_PREFIX}/object_version_counts`,
    tag,
    baseOnly: true,
    summary: 'How many live versions each of some objects has (the version index counts deleted ones too)',
    body: UiObjectVersionCountsReq,
    response: UiObjectVersionCountsRes,
    errors: [400],
  }),
  callPaths: defineRoute({
    access: 'read',
    id: 'ui_call_paths',
    method: 'POST',
    path: `${UI_API_PREFIX}/call_paths`,
    tag,
    baseOnly: true,
    summary: 'The key paths of every call matching a calls filter: the columns the calls table offers',
    body: UiCallPathsReq,
    response: UiCallPathsRes,
  }),
} as const;
