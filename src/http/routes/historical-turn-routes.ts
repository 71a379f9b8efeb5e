// The historical-turn routes (api/agents-history.ts). The PUT reads its JSON with a parser of its
// own (service/json/exact-json.ts), in a scope of its own: the envelope's digest covers every
// digit of its nanosecond times and tells 1.0 from 1, which the app's JSON parser loses. Auth,
// errors and everything else are the app's, as on every route.
import type { FastifyInstance } from 'fastify';
import { UPSERT_HTTP_STATUS, historyRoutes } from '../../api/agents-history.js';
import type { HistoricalTurnsService } from '../../service/agents/historical-turns.js';
import { parseExactJson } from '../../service/json/exact-json.js';
import { bindRoute } from '../bind-route.js';

export function registerHistoricalTurnRoutes(app: FastifyInstance, turns: HistoricalTurnsService): void {
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, parseExactJson(body as string));
      } catch (err) {
        done(err as Error, undefined);
      }
    });
    bindRoute(scope, historyRoutes.agentHistoricalTurnUpsert, async (body, ctx, input, reply) => {
      const out = await turns.upsert(body, input.params.logical_key, ctx.userId);
      reply.code(UPSERT_HTTP_STATUS[out.status]);
      return out;
    });
  });
  bindRoute(app, historyRoutes.agentHistoricalTurnCapabilities, async () => turns.capabilities());
  bindRoute(app, historyRoutes.agentHistoricalTurnStatus, (_body, _ctx, input) =>
    turns.status(input.query.project_id, input.params.logical_key),
  );
}
