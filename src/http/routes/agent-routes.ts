// The agent routes (api/agents.ts): the GenAI OTLP export, served as the calls' OTLP routes are
// (otlp-routes.ts) with the agents' project rule, and the JSON read routes.
import type { FastifyInstance } from 'fastify';
import { agentsOtlpRoutes, agentsRoutes } from '../../api/agents.js';
import type { AgentsService } from '../../service/agents/agents-service.js';
import type { HistoricalTurnsService } from '../../service/agents/historical-turns.js';
import { bindRoute } from '../bind-route.js';
import { registerHistoricalTurnRoutes } from './historical-turn-routes.js';
import { registerOtlpScope } from './otlp-routes.js';

export function registerAgentOtlpRoutes(app: FastifyInstance, agents: AgentsService, bodyLimit: number): Promise<void> {
  return registerOtlpScope(
    app,
    Object.values(agentsOtlpRoutes),
    bodyLimit,
    (exp, header) => agents.projectsOf(exp, header),
    (exp, projects, req) => agents.ingest(exp, projects, req.weft.userId),
  );
}

export function registerAgentRoutes(app: FastifyInstance, agents: AgentsService, turns: HistoricalTurnsService): void {
  bindRoute(app, agentsRoutes.agentSpansQuery, (body) => agents.querySpans(body));
  bindRoute(app, agentsRoutes.agentsQuery, (body) => agents.queryAgents(body));
  bindRoute(app, agentsRoutes.agentVersionsQuery, (body) => agents.queryAgentVersions(body));
  bindRoute(app, agentsRoutes.agentCustomAttrsSchema, (body) => agents.customAttrsSchema(body));
  bindRoute(app, agentsRoutes.agentConversationSpans, (body) => agents.conversationSpans(body));
  bindRoute(app, agentsRoutes.agentTraceChat, (body) => agents.traceChat(body));
  bindRoute(app, agentsRoutes.agentConversationChat, (body) => agents.conversationChat(body));
  bindRoute(app, agentsRoutes.agentSearch, (body) => agents.search(body));
  bindRoute(app, agentsRoutes.agentSpanStats, (body) => agents.stats(body));
  registerHistoricalTurnRoutes(app, turns);
}
