// Request and response schemas of the tables endpoints.
import type { RouteSpec } from './route-spec.js';

export const tablesRoutes: Record<string, RouteSpec> = {};
