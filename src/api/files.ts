// Request and response schemas of the files endpoints.
import type { RouteSpec } from './route-spec.js';

export const filesRoutes: Record<string, RouteSpec> = {};
