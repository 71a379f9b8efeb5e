import type { FastifyInstance } from 'fastify';
import { callsRoutes } from '../../api/calls.js';
import { callsV2Routes } from '../../api/calls-v2.js';
import type { CallsService } from '../../service/calls/calls-service.js';
import { bindRoute, RawJson } from '../bind-route.js';

export function registerCallRoutes(app: FastifyInstance, calls: CallsService): void {
  bindRoute(app, callsRoutes.callStart, (body, ctx) => calls.start(body, ctx));
  bindRoute(app, callsRoutes.callEnd, (body) => calls.end(body));
  bindRoute(app, callsRoutes.callUpsertBatch, (body, ctx) => calls.upsertBatch(body.batch, ctx));
  bindRoute(app, callsRoutes.callUpdate, (body) => calls.update(body));
  bindRoute(
    app,
    callsRoutes.callRead,
    async (body, ctx) => new RawJson(`{"call":${(await calls.read(body, ctx)) ?? 'null'}}`),
  );
  bindRoute(app, callsRoutes.callsDelete, (body) => calls.delete(body));
  bindRoute(app, callsRoutes.callsQueryStats, (body) => calls.stats(body));
  bindRoute(app, callsRoutes.callsStreamQuery, (body, ctx) => calls.streamQuery(body, ctx));
  bindRoute(app, callsRoutes.callsQuery, async (body, ctx) => new RawJson(await calls.queryJson(body, ctx)));
}

/** The v2 routes: the newest Python SDK's write path, named by the project in the path. */
export function registerCallV2Routes(app: FastifyInstance, calls: CallsService): void {
  bindRoute(app, callsV2Routes.callsComplete, (body, ctx, { params }) => calls.complete(params, body.batch, ctx));
  bindRoute(app, callsV2Routes.callStartV2, (body, ctx, { params }) => calls.startV2(params, body, ctx));
  bindRoute(app, callsV2Routes.callEndV2, (body, _ctx, { params }) => calls.endV2(params, body));
}
