// Endpoints for Weft's own web UI, under UI_API_PREFIX: not part of the Weave trace-server
// API (so served only at their path, never also under /traces), read with the same API keys.
// The UI's pages themselves are static files (http/routes/ui-routes.ts), not API operations.
import { Type, type Static } from 'typebox';
import { defineRoute } from './route-spec.js';
import { ProjectId, Strict } from './common.js';

/** Where the web UI is served; its pages are client-side routes below it. */
export const UI_PREFIX = '/ui';
/** The UI-only endpoints live here, so no page route of the UI can shadow them. */
export const UI_API_PREFIX = `${UI_PREFIX}/api`;

export const UiProject = Type.Object({
  project_id: Type.String({ description: 'Project, as "<entity>/<project>"' }),
  entity: Type.String(),
  project: Type.String({ description: 'Empty when the project id has no "/"' }),
  call_count: Type.Integer({ minimum: 0, description: 'Live calls: not deleted, not expired' }),
  last_call_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the newest live call started (ISO 8601, UTC); null when the project has objects only',
  }),
});
export type UiProject = Static<typeof UiProject>;

export const UiProjectsRes = Type.Object({
  projects: Type.Array(UiProject, { description: 'Newest activity first (projects without calls last), then by project_id' }),
});
export type UiProjectsRes = Static<typeof UiProjectsRes>;


export const UiTraceTreeReq = Strict({ project_id: ProjectId, trace_id: Type.String({ minLength: 1 }) });
export type UiTraceTreeReq = Static<typeof UiTraceTreeReq>;

/** One call of a trace as the tree shows it: no payloads, status and tokens derived. */
export const UiTraceNode = Type.Object({
  id: Type.String(),
  parent_id: Type.Union([Type.String(), Type.Null()]),
  op_name: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  started_at: Type.String({ format: 'date-time' }),
  ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  status: Type.Union([Type.Literal('success'), Type.Literal('error'), Type.Literal('running'), Type.Literal('descendant_error')]),
  tokens: Type.Union([Type.Integer(), Type.Null()], { description: 'Total tokens over the models in summary.usage; null: no usage' }),
});
export type UiTraceNode = Static<typeof UiTraceNode>;

const tag = 'Web UI';
export const uiRoutes = {
  projects: defineRoute({
    access: 'read', id: 'ui_projects', method: 'GET', path: `${UI_API_PREFIX}/projects`, tag, baseOnly: true,
    summary: 'Projects having live calls or objects that the caller may read, with call counts',
    body: undefined, response: UiProjectsRes,
  }),
  traceTree: defineRoute({
    access: 'read', id: 'ui_trace_tree', method: 'POST', path: `${UI_API_PREFIX}/trace_tree`, tag, baseOnly: true, reply: 'jsonl',
    summary: "A trace's calls without payloads (JSON Lines, by start time): the skeleton the trace view streams",
    body: UiTraceTreeReq, response: UiTraceNode,
  }),
} as const;
