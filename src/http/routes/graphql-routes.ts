// Binds POST /graphql (api/graphql.ts) to the GraphQL service, with the caller of the request.
import type { FastifyInstance } from 'fastify';
import { graphqlRoutes } from '../../api/graphql.js';
import { executeGraphql } from '../../service/graphql/graphql-api.js';
import type { SecretsService } from '../../service/secrets/secret-service.js';
import type { Store } from '../../storage/store.js';
import { bindRoute } from '../bind-route.js';

export function registerGraphqlRoutes(
  app: FastifyInstance,
  store: Store,
  secrets: SecretsService,
  opts: { defaultEntity: string | null },
): void {
  bindRoute(app, graphqlRoutes.graphql, async (body, ctx, _input, reply) =>
    executeGraphql(body, ctx, {
      openDefaultEntity: opts.defaultEntity,
      frontendHost: `${reply.request.protocol}://${reply.request.host}`,
      usernames: (ids) => store.auth.usernames(ids),
      secrets,
    }),
  );
}
