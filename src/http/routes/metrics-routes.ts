// GET /metrics (api/metrics.ts): the app's metrics, rendered when scraped.
import type { FastifyInstance } from 'fastify';
import { metricsRoutes } from '../../api/metrics.js';
import type { ServerMetrics } from '../../service/metrics/server-metrics.js';
import { bindRoute } from '../bind-route.js';

export function registerMetricsRoutes(app: FastifyInstance, metrics: Pick<ServerMetrics, 'render'>): void {
  bindRoute(app, metricsRoutes.metrics, async () => Buffer.from(await metrics.render()));
}
