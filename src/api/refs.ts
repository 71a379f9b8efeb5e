// Request and response schemas of the refs endpoints.
import type { RouteSpec } from './route-spec.js';

export const refsRoutes: Record<string, RouteSpec> = {};
