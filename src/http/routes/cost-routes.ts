// Binds the costs routes (api/costs.ts) to the cost service. The store it gets loads the
// shipped price list in the background (withDefaultPrices, in app.ts).
import type { FastifyInstance } from 'fastify';
import { costsRoutes } from '../../api/costs.js';
import type { CostService } from '../../service/costs/cost-service.js';
import { bindRoute } from '../bind-route.js';

export function registerCostRoutes(app: FastifyInstance, costs: CostService): void {
  bindRoute(app, costsRoutes.costCreate, (body, ctx) => costs.create(body, ctx.userId));
  bindRoute(app, costsRoutes.costQuery, async (body) => ({ results: await costs.query(body) }));
  bindRoute(app, costsRoutes.costPurge, async (body) => {
    await costs.purge(body);
    return {};
  });
}
