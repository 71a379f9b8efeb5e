// Requests as the Weave Python SDK sends them, rebuilt from its source (PyPI cannot be reached
// from these machines, so the package itself cannot run here):
// - GraphQL documents of weave/compat/wandb/wandb_thin/internal_api.py (wandb/weave), posted as
//   {"query", "variables"} with HTTP Basic `api:<key>` (gql's HTTPX transport);
// - trace-server bodies as the generated client sends pydantic models dumped with
//   model_dump(by_alias=True) / mode="json": every optional field present, None as null;
//   v2 routes and models of weave/trace_server_bindings/stainless_remote_http_trace_server.py
//   and weave/trace_server_bindings/models.py; feedback batch items dumped with
//   exclude={'id', 'created_at'}, exclude_none=True.
import { randomUUID } from 'node:crypto';

/** The SDK's headers: Basic auth (api:<key>) and the generated client's identification. */
export function pyHeaders(key: string | null): Record<string, string> {
  const h: Record<string, string> = { 'user-agent': 'Weave/Python 0.52.22', 'x-stainless-lang': 'python' };
  if (key !== null) h.authorization = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
  return h;
}

/** The GraphQL operations of weave.init (internal_api.py), as their documents read. */
export const GQL = {
  defaultEntity: `
        query DefaultEntity {
            viewer {
                username
                defaultEntity {
                    name
                }
            }
        }
        `,
  project: `
        query Project($name: String!, $entityName: String!) {
            project(name: $name, entityName: $entityName) {
                name
            }
        }
        `,
  upsertModel: `
    mutation UpsertModel($name: String!, $id: String, $entity: String!, $description: String, $repo: String)  {
        upsertModel(input: { id: $id, name: $name, entityName: $entity, description: $description, repo: $repo }) {
            model {
                name
                description
            }
        }
    }
    `,
  entity: `
        query Entity($entityName: String!) {
            viewer { username }
            entity(name: $entityName) { readOnly }
        }
        `,
  usersByIds: `
        query UsersByIds($ids: [ID!]) {
            users(ids: $ids, first: 1000) {
                edges {
                    node {
                        id
                        username
                    }
                }
            }
        }
        `,
} as const;

/** A Python datetime as pydantic's JSON mode writes it: microseconds and Z. */
export const pyTime = (ms: number, micros = 123): string =>
  new Date(ms).toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`);

export const PY_ATTRIBUTES = {
  weave: {
    client_version: '0.52.22',
    source: 'python-sdk',
    os_name: 'Linux',
    os_version: '#1 SMP',
    os_release: '6.1.0',
    sys_version: '3.12.3 (main)',
  },
};

export const pyOpRef = (projectId: string, name: string) => `weave:///${projectId}/op/${name}:${'Ab12'.repeat(11)}`;

export interface PyCallOpts {
  id?: string;
  trace_id?: string;
  parent_id?: string | null;
  op?: string;
  started_ms?: number;
  ended_ms?: number;
  inputs?: Record<string, unknown>;
  output?: unknown;
  exception?: string | null;
  summary?: Record<string, unknown> | null;
  thread_id?: string | null;
  turn_id?: string | null;
  display_name?: string | null;
}

/** StartedCallSchemaForInsert with every field, as dumped. */
export function pyStart(projectId: string, o: PyCallOpts = {}) {
  return {
    project_id: projectId,
    id: o.id ?? randomUUID(),
    op_name: o.op ?? pyOpRef(projectId, 'predict'),
    display_name: o.display_name ?? null,
    trace_id: o.trace_id ?? randomUUID(),
    parent_id: o.parent_id ?? null,
    thread_id: o.thread_id ?? null,
    turn_id: o.turn_id ?? null,
    started_at: pyTime(o.started_ms ?? Date.now()),
    attributes: PY_ATTRIBUTES,
    inputs: o.inputs ?? { x: 1 },
    otel_dump: null,
    wb_user_id: null,
    wb_run_id: null,
    wb_run_step: null,
  };
}

/** EndedCallSchemaForInsertWithStartedAt (v2 eager end): the end plus started_at and trace_id. */
export function pyEnd(
  projectId: string,
  start: { id: string; trace_id: string; started_at: string },
  o: PyCallOpts = {},
) {
  return {
    project_id: projectId,
    id: start.id,
    ended_at: pyTime(o.ended_ms ?? Date.now() + 5),
    exception: o.exception ?? null,
    output: o.output === undefined ? null : o.output,
    summary: o.summary ?? { usage: {}, status_counts: { success: 1, error: 0 } },
    wb_run_step_end: null,
    is_eval: null,
    started_at: start.started_at,
    trace_id: start.trace_id,
  };
}

/** CompletedCallSchemaForInsert (v2 calls/complete), every field present. */
export function pyCompleted(projectId: string, o: PyCallOpts = {}) {
  const start = pyStart(projectId, o);
  return {
    ...start,
    ended_at: pyTime(o.ended_ms ?? (o.started_ms ?? Date.now()) + 5),
    exception: o.exception ?? null,
    output: o.output === undefined ? null : o.output,
    summary: o.summary === undefined ? { usage: {}, status_counts: { success: 1, error: 0 } } : o.summary,
    wb_run_step_end: null,
  };
}

/** CallsFilter with all eleven fields (null when unset). */
export function pyFilter(f: Record<string, unknown> = {}) {
  return {
    op_names: null,
    input_refs: null,
    output_refs: null,
    parent_ids: null,
    trace_ids: null,
    call_ids: null,
    thread_ids: null,
    turn_ids: null,
    trace_roots_only: null,
    wb_user_ids: null,
    wb_run_ids: null,
    ...f,
  };
}

/** CallsQueryReq of get_calls() as dumped. */
export function pyCallsQuery(projectId: string, o: Record<string, unknown> = {}) {
  return {
    project_id: projectId,
    filter: pyFilter(),
    limit: null,
    offset: null,
    sort_by: null,
    query: null,
    include_costs: false,
    include_feedback: false,
    include_storage_size: false,
    include_total_storage_size: false,
    columns: null,
    expand_columns: null,
    return_expanded_column_values: true,
    ...o,
  };
}
