// Every route Weft serves, in one list: the source of the OpenAPI document.
import type { RouteSpec } from './route-spec.js';
import { metaRoutes } from './meta.js';
import { callsRoutes } from './calls.js';
import { callsV2Routes } from './calls-v2.js';
import { objectsRoutes } from './objects.js';
import { feedbackRoutes } from './feedback.js';
import { tablesRoutes } from './tables.js';
import { filesRoutes } from './files.js';
import { refsRoutes } from './refs.js';
import { costsRoutes } from './costs.js';
import { adminRoutes } from './admin.js';
import { projectsRoutes } from './projects.js';
import { graphqlRoutes } from './graphql.js';
import { threadsRoutes } from './threads.js';
import { uiRoutes } from './ui.js';
import { metricsRoutes } from './metrics.js';
import { otlpRoutes } from './otlp.js';

export const ROUTES: readonly RouteSpec[] = [
  ...Object.values(metaRoutes),
  ...Object.values(callsRoutes),
  ...Object.values(callsV2Routes),
  ...Object.values(objectsRoutes),
  ...Object.values(feedbackRoutes),
  ...Object.values(tablesRoutes),
  ...Object.values(filesRoutes),
  ...Object.values(refsRoutes),
  ...Object.values(costsRoutes),
  ...Object.values(adminRoutes),
  ...Object.values(projectsRoutes),
  ...Object.values(threadsRoutes),
  ...Object.values(graphqlRoutes),
  ...Object.values(uiRoutes),
  ...Object.values(metricsRoutes),
  ...Object.values(otlpRoutes),
];
