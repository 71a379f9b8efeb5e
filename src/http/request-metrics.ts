// Reports every answered request to /metrics: method, route, status, time and body bytes.
// The route is the pattern the request matched (`/objs/:object_id`), never its URL, so the
// number of label values stays bounded by the route table; requests that matched no route
// share one label.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerMetrics } from '../service/metrics/server-metrics.js';
import { requestBytes } from './request-bytes.js';

export const UNMATCHED_ROUTE = 'unmatched';

/** The route pattern of a request, or null when it matched none (a 404). */
export const routeOf = (req: FastifyRequest): string | null => req.routeOptions.url ?? null;

export function registerRequestMetrics(app: FastifyInstance, metrics: Pick<ServerMetrics, 'request'>): void {
  app.addHook('onResponse', async (req, reply) => {
    const bytes = requestBytes(req, reply);
    metrics.request({
      method: req.method,
      route: routeOf(req) ?? UNMATCHED_ROUTE,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
      bytesIn: bytes.in,
      bytesOut: bytes.out,
    });
  });
}
