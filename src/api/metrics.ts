// GET /metrics: the server's metrics for Prometheus (what they are: service/server-metrics.ts;
// who may read them: RouteAccess `monitor`). Weft's own route, not the trace server's: served
// at the root only.
import { Type } from 'typebox';
import { defineRoute } from './route-spec.js';

export const MetricsRes = Type.String({ description: 'The Prometheus text exposition format, version 0.0.4' });

export const metricsRoutes = {
  metrics: defineRoute({
    access: 'monitor',
    id: 'metrics',
    method: 'GET',
    path: '/metrics',
    tag: 'Service',
    baseOnly: true,
    summary: 'Metrics in the Prometheus text format: open on loopback; elsewhere an admin key or the metrics token',
    body: undefined,
    response: MetricsRes,
    reply: 'prometheus',
  }),
} as const;
