// Metrics wired into one app: its registry (service/server-metrics.ts), the hooks that count
// each request's body bytes and report the request, the /metrics route, and the store the rest
// of the app uses, metered (service/metered-store.ts): returned, to be used in place of `store`.
import type { FastifyInstance } from 'fastify';
import { createServerMetrics } from '../service/metrics/server-metrics.js';
import { meteredStore } from '../service/metrics/metered-store.js';
import type { Store } from '../storage/store.js';
import { registerRequestBytes } from './request-bytes.js';
import { registerRequestMetrics } from './request-metrics.js';
import { registerMetricsRoutes } from './routes/metrics-routes.js';

export function registerObservability(app: FastifyInstance, store: Store, ingestQueueBytes: number): Store {
  const metrics = createServerMetrics({ store, ingestQueueBytes });
  app.addHook('onClose', async () => metrics.close());
  registerRequestBytes(app);
  registerRequestMetrics(app, metrics);
  registerMetricsRoutes(app, metrics);
  return meteredStore(store, metrics);
}
