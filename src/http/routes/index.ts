// The function that serves each route group of api/routes.ts. Keyed by the groups, so a group
// added there without a binding here is a type error; a route of a group that its binding
// leaves out fails test/route-registry.test.ts.
import type { FastifyInstance } from 'fastify';
import type { RouteGroup } from '../../api/routes.js';
import type { ServerMetrics } from '../../service/metrics/server-metrics.js';
import type { Services } from '../../service/services.js';
import { registerAdminRoutes } from './admin-routes.js';
import { registerAgentOtlpRoutes, registerAgentRoutes } from './agent-routes.js';
import { registerCallRoutes, registerCallV2Routes } from './call-routes.js';
import { registerCompletionRoutes } from './completion-routes.js';
import { registerCostRoutes } from './cost-routes.js';
import { registerFeedbackRoutes } from './feedback-routes.js';
import { registerFileRoutes } from './file-routes.js';
import { registerGraphqlRoutes } from './graphql-routes.js';
import { registerMetaRoutes } from './meta-routes.js';
import { registerMetricsRoutes } from './metrics-routes.js';
import { registerObjectRoutes } from './object-routes.js';
import { registerOtlpRoutes } from './otlp-routes.js';
import { registerProjectRoutes, registerThreadRoutes } from './project-routes.js';
import { registerRefRoutes } from './ref-routes.js';
import { registerSecretRoutes } from './secret-routes.js';
import { registerSignalRoutes } from './signal-routes.js';
import { registerTableRoutes } from './table-routes.js';
import { registerUiRoutes } from './ui-routes.js';

/** What some bindings need besides the services. */
export interface BindOptions {
  readonly bodyLimit: number;
  readonly defaultEntity: string | null;
  /** The built web UI's directory; null: none, its pages answer 503. */
  readonly uiDir: string | null;
  readonly metrics: Pick<ServerMetrics, 'render'>;
}

export type BindGroup = (app: FastifyInstance, services: Services, opts: BindOptions) => void | Promise<void>;

export const ROUTE_BINDINGS: { readonly [G in RouteGroup]: BindGroup } = {
  meta: (app, s) => registerMetaRoutes(app, s.store),
  calls: (app, s) => registerCallRoutes(app, s.calls),
  callsV2: (app, s) => registerCallV2Routes(app, s.calls),
  objects: (app, s) => registerObjectRoutes(app, s.store, (p) => s.signals.objectWritten(p)),
  feedback: (app, s) => registerFeedbackRoutes(app, s.feedback),
  tables: (app, s) => registerTableRoutes(app, s.store),
  files: (app, s) => registerFileRoutes(app, s.store),
  refs: (app, s) => registerRefRoutes(app, s.store),
  costs: (app, s) => registerCostRoutes(app, s.costs),
  admin: (app, s) => registerAdminRoutes(app, s.store),
  secrets: (app, s) => registerSecretRoutes(app, s.secrets),
  completions: (app, s) => registerCompletionRoutes(app, s.completions),
  signals: (app, s) => registerSignalRoutes(app, s.signals),
  projects: (app, s) => registerProjectRoutes(app, s.store, s.retention),
  threads: (app, s) => registerThreadRoutes(app, s.store),
  graphql: (app, s, o) => registerGraphqlRoutes(app, s.store, s.secrets, { defaultEntity: o.defaultEntity }),
  ui: (app, s, o) => registerUiRoutes(app, s.store, o.uiDir),
  metrics: (app, _s, o) => registerMetricsRoutes(app, o.metrics),
  otlp: (app, s, o) => registerOtlpRoutes(app, s.calls, o.bodyLimit),
  agents: (app, s) => registerAgentRoutes(app, s.agents, s.historicalTurns),
  agentsOtlp: (app, s, o) => registerAgentOtlpRoutes(app, s.agents, o.bodyLimit),
};
