// POST /graphql: the few operations of W&B's GraphQL API that the Weave SDKs send during
// `weave.init` (the viewer and its default entity, a project's existence, creating a project)
// and while reading calls (user names by id). Served at the base URL only, as W&B serves it.
import { Type, type Static } from 'typebox';
import { defineRoute } from './route-spec.js';

export const GraphqlReq = Type.Object({
  query: Type.String({ minLength: 1, description: 'The GraphQL document' }),
  variables: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  operationName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type GraphqlReq = Static<typeof GraphqlReq>;

const GraphqlError = Type.Object(
  {
    message: Type.String(),
    path: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Integer()]))),
    locations: Type.Optional(Type.Array(Type.Object({ line: Type.Integer(), column: Type.Integer() }))),
  },
  { additionalProperties: true },
);

/** GraphQL's answer: `data`, and `errors` when any field failed (still HTTP 200, as W&B answers). */
export const GraphqlRes = Type.Object({
  data: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  errors: Type.Optional(Type.Array(GraphqlError)),
});

export const graphqlRoutes = {
  graphql: defineRoute({
    access: 'read',
    baseOnly: true,
    id: 'graphql',
    method: 'POST',
    path: '/graphql',
    tag: 'W&B GraphQL',
    summary: 'The W&B GraphQL operations the Weave SDKs send (viewer, project, upsertModel, entity, users)',
    body: GraphqlReq,
    response: GraphqlRes,
    errors: [400, 401],
  }),
} as const;
