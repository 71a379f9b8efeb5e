// Binds the costs routes (api/costs.ts) to the cost service, and loads the default price
// list into the store while the app starts (onReady runs inside app.ready(), before any
// request is served), so include_costs always sees the prices of the shipped file.
import type { FastifyInstance } from 'fastify';
import { costsRoutes } from '../../api/costs.js';
import { syncDefaultPrices } from '../../service/cost-defaults.js';
import { createCostService } from '../../service/cost-service.js';
import type { Store } from '../../storage/store.js';
import { bindRoute } from '../bind-route.js';

export function registerCostRoutes(app: FastifyInstance, store: Store): void {
  const costs = createCostService(store.costs);
  app.addHook('onReady', async () => {
    await syncDefaultPrices(store.costs);
  });
  bindRoute(app, costsRoutes.costCreate, (body, ctx) => costs.create(body, ctx.userId));
  bindRoute(app, costsRoutes.costQuery, async (body) => ({ results: await costs.query(body) }));
  bindRoute(app, costsRoutes.costPurge, async (body) => {
    await costs.purge(body);
    return {};
  });
}
