// Request and response schemas of the costs endpoints (weave-api.md §1.21-1.23, §3.8).
import { Type, type Static } from 'typebox';
import { DateTime, EmptyRes, Limit, Nullable, Offset, ProjectId, SortBy, Strict } from './common.js';
import { Query } from './query.js';
import { List, MAX_NAMES } from './limits.js';
import { defineRoute } from './route-spec.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

// Nested input model: lenient (unknown keys ignored), as Weave's CostCreateInput.
export const CostCreateInput = Type.Object({
  prompt_token_cost: Type.Number({ description: 'Price of one prompt (input) token' }),
  completion_token_cost: Type.Number({ description: 'Price of one completion (output) token' }),
  prompt_token_cost_unit: Nullable(Type.String({ description: 'Currency; default "USD"' })),
  completion_token_cost_unit: Nullable(Type.String({ description: 'Currency; default "USD"' })),
  effective_date: Nullable(DateTime),
  provider_id: Nullable(Type.String({ description: 'Default "default"' })),
});
export type CostCreateInput = Static<typeof CostCreateInput>;

export const CostCreateReq = Strict({
  project_id: ProjectId,
  costs: Type.Record(Type.String(), CostCreateInput, { description: 'Prices by llm_id (the keys of summary.usage)' }),
  wb_user_id: Nullable(Type.String({ description: 'Ignored: the server sets the creator from the caller' })),
});
export type CostCreateReq = Static<typeof CostCreateReq>;

export const CostCreateRes = Type.Object({
  ids: Type.Array(Type.Tuple([Type.String(), Type.String()]), {
    description: '[cost_id, llm_id] per created price, in request order',
  }),
});
export type CostCreateRes = Static<typeof CostCreateRes>;

export const CostQueryReq = Strict({
  project_id: ProjectId,
  fields: Nullable(
    List(Type.String(), MAX_NAMES, { description: 'Output keys to fill; the others are null. Default: all' }),
  ),
  query: Nullable(Query),
  sort_by: Nullable(List(SortBy, MAX_NAMES)),
  limit: Limit,
  offset: Offset,
});
export type CostQueryReq = Static<typeof CostQueryReq>;

export const CostQueryOutput = Type.Object({
  id: NullableString,
  llm_id: NullableString,
  prompt_token_cost: NullableNumber,
  completion_token_cost: NullableNumber,
  prompt_token_cost_unit: NullableString,
  completion_token_cost_unit: NullableString,
  effective_date: Type.Union([DateTime, Type.Null()]),
  provider_id: NullableString,
});
export type CostQueryOutput = Static<typeof CostQueryOutput>;
export const CostQueryRes = Type.Object({ results: Type.Array(CostQueryOutput) });

export const CostPurgeReq = Strict({ project_id: ProjectId, query: Query });
export type CostPurgeReq = Static<typeof CostPurgeReq>;

const tag = 'Costs';
export const costsRoutes = {
  costCreate: defineRoute({
    access: 'write',
    id: 'cost_create',
    method: 'POST',
    path: '/cost/create',
    tag,
    summary: 'Set project prices for LLMs',
    carriesData: true,
    body: CostCreateReq,
    response: CostCreateRes,
    errors: [400],
  }),
  costQuery: defineRoute({
    access: 'read',
    id: 'cost_query',
    method: 'POST',
    path: '/cost/query',
    tag,
    summary: 'Query project prices',
    body: CostQueryReq,
    response: CostQueryRes,
    errors: [400],
  }),
  costPurge: defineRoute({
    access: 'write',
    id: 'cost_purge',
    method: 'POST',
    path: '/cost/purge',
    tag,
    summary: 'Permanently delete project prices by id',
    body: CostPurgeReq,
    response: EmptyRes,
    errors: [400],
  }),
} as const;
