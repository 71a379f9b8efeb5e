// Every route Weft serves, in one list: the source of the OpenAPI document.
import type { RouteSpec } from './route-spec.js';
import { metaRoutes } from './meta.js';
import { callsRoutes } from './calls.js';
import { objectsRoutes } from './objects.js';
import { feedbackRoutes } from './feedback.js';

export const ROUTES: readonly RouteSpec[] = [
  ...Object.values(metaRoutes),
  ...Object.values(callsRoutes),
  ...Object.values(objectsRoutes),
  ...Object.values(feedbackRoutes),
];
