// Binds the model routes (api/completions.ts) to the completions service.
import type { FastifyInstance } from 'fastify';
import { completionsRoutes as r } from '../../api/completions.js';
import type { CompletionsService } from '../../service/completions/completions-service.js';
import { bindRoute } from '../bind-route.js';

export function registerCompletionRoutes(app: FastifyInstance, completions: CompletionsService): void {
  bindRoute(app, r.completionsCreate, (body, ctx) => completions.create(body, ctx));
  bindRoute(app, r.completionsCreateStream, (body, ctx) => completions.createStream(body, ctx));
  bindRoute(app, r.completionsModels, (body) => completions.models(body.project_id));
}
