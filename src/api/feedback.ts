// Request and response schemas of the feedback endpoints.
import type { RouteSpec } from './route-spec.js';

export const feedbackRoutes: Record<string, RouteSpec> = {};
