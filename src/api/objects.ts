// Request and response schemas of the objects endpoints.
import type { RouteSpec } from './route-spec.js';

export const objectsRoutes: Record<string, RouteSpec> = {};
