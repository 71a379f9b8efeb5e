// Every route Weft serves, in one list of groups: the source of the OpenAPI document, of the
// route sweeps of the tests, and of the bindings (http/routes/index.ts maps each group to the
// function that serves it, so a group without one is a type error).
import { adminRoutes } from './admin.js';
import { agentsOtlpRoutes, agentsRoutes } from './agents.js';
import { callsRoutes } from './calls.js';
import { callsV2Routes } from './calls-v2.js';
import { completionsRoutes } from './completions.js';
import { costsRoutes } from './costs.js';
import { feedbackRoutes } from './feedback.js';
import { filesRoutes } from './files.js';
import { graphqlRoutes } from './graphql.js';
import { metaRoutes } from './meta.js';
import { metricsRoutes } from './metrics.js';
import { objectsRoutes } from './objects.js';
import { otlpRoutes } from './otlp.js';
import { projectsRoutes } from './projects.js';
import { refsRoutes } from './refs.js';
import { secretsRoutes } from './secrets.js';
import { signalsRoutes } from './signals.js';
import type { RouteSpec } from './route-spec.js';
import { tablesRoutes } from './tables.js';
import { threadsRoutes } from './threads.js';
import { uiRoutes } from './ui.js';

export const ROUTE_GROUPS = {
  meta: metaRoutes,
  calls: callsRoutes,
  callsV2: callsV2Routes,
  objects: objectsRoutes,
  feedback: feedbackRoutes,
  tables: tablesRoutes,
  files: filesRoutes,
  refs: refsRoutes,
  costs: costsRoutes,
  admin: adminRoutes,
  secrets: secretsRoutes,
  completions: completionsRoutes,
  signals: signalsRoutes,
  projects: projectsRoutes,
  threads: threadsRoutes,
  graphql: graphqlRoutes,
  ui: uiRoutes,
  metrics: metricsRoutes,
  otlp: otlpRoutes,
  agents: agentsRoutes,
  agentsOtlp: agentsOtlpRoutes,
} as const satisfies Record<string, Record<string, RouteSpec>>;

export type RouteGroup = keyof typeof ROUTE_GROUPS;

export const ROUTES: readonly RouteSpec[] = Object.values(ROUTE_GROUPS).flatMap((g) => Object.values<RouteSpec>(g));
