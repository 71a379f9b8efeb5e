// Binds the secrets API (api/secrets.ts) to the secrets service.
import type { FastifyInstance } from 'fastify';
import { secretsRoutes as r } from '../../api/secrets.js';
import type { SecretsService } from '../../service/secrets/secret-service.js';
import { bindRoute } from '../bind-route.js';

export function registerSecretRoutes(app: FastifyInstance, secrets: SecretsService): void {
  bindRoute(app, r.secretSet, (body, ctx) => secrets.set(body, ctx.access, ctx.userId));
  bindRoute(app, r.secretList, (body, ctx) => secrets.list(body.entity, ctx.access));
  bindRoute(app, r.secretDelete, (body, ctx) => secrets.delete(body.entity, body.name, ctx.access));
}
