// Metrics wired into one app: its registry (service/metrics/server-metrics.ts), the hooks that
// count each request's body bytes and report the request, and the store the rest of the app
// uses, metered (service/metrics/metered-store.ts): returned with the registry, to be used in
// place of `store`. The /metrics route is bound with the other routes (routes/index.ts).
import type { FastifyInstance } from 'fastify';
import { createServerMetrics } from '../service/metrics/server-metrics.js';
import { meteredStore } from '../service/metrics/metered-store.js';
import type { Store } from '../storage/store.js';
import { registerRequestBytes } from './request-bytes.js';
import { registerRequestMetrics } from './request-metrics.js';
import type { ServerMetrics } from '../service/metrics/server-metrics.js';

export function registerObservability(
  app: FastifyInstance,
  store: Store,
  ingestQueueBytes: number,
): { store: Store; metrics: ServerMetrics } {
  const metrics = createServerMetrics({ store, ingestQueueBytes });
  app.addHook('onClose', async () => metrics.close());
  registerRequestBytes(app);
  registerRequestMetrics(app, metrics);
  return { store: meteredStore(store, metrics), metrics };
}
