// Binds the scoring routes (api/signals.ts) to the signals service.
import type { FastifyInstance } from 'fastify';
import { signalsRoutes as r } from '../../api/signals.js';
import type { SignalsService } from '../../service/signals/signals-service.js';
import { bindRoute } from '../bind-route.js';

export function registerSignalRoutes(app: FastifyInstance, signals: SignalsService): void {
  bindRoute(app, r.signalsPresets, async () => signals.presets());
  bindRoute(app, r.signalsPublish, (body, ctx) => signals.publish(body, ctx.userId));
  bindRoute(app, r.signalsStatus, (body) => signals.status(body.project_id));
  bindRoute(app, r.signalsBackfill, (body) => signals.backfill(body));
  bindRoute(app, r.callsScore, (body) => signals.scoreCalls(body));
  bindRoute(app, r.actionsExecuteBatch, (body) => signals.executeBatch(body));
}
