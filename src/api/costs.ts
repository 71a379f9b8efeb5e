// Request and response schemas of the costs endpoints.
import type { RouteSpec } from './route-spec.js';

export const costsRoutes: Record<string, RouteSpec> = {};
