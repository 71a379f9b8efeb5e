// A route is a value: the same record registers the Fastify route, validates the
// request body and produces the OpenAPI document.
import type { TSchema } from 'typebox';

/** otlp: OTLP/HTTP, protobuf or JSON by Content-Type (ingest/otlp decodes it; the reply is in the request's encoding). */
export type RouteBody = 'json' | 'multipart' | 'none' | 'otlp';
/** prometheus: the Prometheus text exposition format (text/plain; version=0.0.4) of /metrics. */
export type RouteReply = 'json' | 'jsonl' | 'octet-stream' | 'otlp' | 'prometheus';
/**
 * Who may call a route: anyone (open), or a key that may read / write the request's
 * project (body.project_id, the project_ids nested in the body, or ?project_id=), or an
 * admin. `monitor` (/metrics): a peer on the loopback interface, or a bearer of the metrics
 * token, without a key; anyone else an admin. Checked once, at the edge (http/auth-guard.ts).
 */
export type RouteAccess = 'open' | 'read' | 'write' | 'admin' | 'monitor';

export interface RouteSpec<
  B extends TSchema | undefined = TSchema | undefined,
  R extends TSchema = TSchema,
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
> {
  /** Stable operation id, used in the OpenAPI document. */
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly body: B;
  /** Path parameters (Fastify `:name` segments), validated like the body. */
  readonly params?: P;
  /** Query-string parameters, validated like the body. */
  readonly querystring?: Q;
  /** Shape of a 200 answer (for jsonl: of one line). */
  readonly response: R;
  readonly reply?: RouteReply;
  /** Request encoding; defaults to json when a body schema is given. */
  readonly requestBody?: RouteBody;
  /**
   * The body carries data to store (calls, objects, rows, files, feedback, prices, spans): it
   * may be as large as WEFT_BODY_LIMIT. Any other body asks about data (a query, ids,
   * settings) and is at most QUERY_BODY_LIMIT (api/limits.ts).
   */
  readonly carriesData?: boolean;
  /** Error statuses this route documents beyond 422. */
  readonly errors?: readonly number[];
  /**
   * Top-level body fields holding lists of refs whose projects the request names (checked like a
   * project_id). Every `project_id` the body and query schemas allow is found without a word here
   * (http/route-projects.ts).
   */
  readonly projectRefs?: readonly string[];
  /** Every route declares one (test/auth-http.test.ts checks); a route without one is admin-only. */
  readonly access?: RouteAccess;
  /** True for /health and /server_info: reachable without credentials. */
  readonly open?: boolean;
  /** Kept out of the OpenAPI document (legacy twins). */
  readonly hidden?: boolean;
  /**
   * Served only at its path, not also under TRACES_PREFIX: W&B's own API (GraphQL) and
   * Weft's admin routes are not part of the trace server.
   */
  readonly baseOnly?: boolean;
}

/**
 * The Python SDK finds the trace server at `<WANDB_BASE_URL>/traces` (unless
 * WF_TRACE_SERVER_URL says otherwise): every trace-server route is also served under this
 * prefix, so one base URL serves both W&B's GraphQL and the trace API.
 */
export const TRACES_PREFIX = '/traces';

/** The paths a route answers at: its own and, for trace-server routes, the prefixed one. */
export function servedPaths(spec: Pick<RouteSpec, 'path' | 'baseOnly'>): string[] {
  return spec.baseOnly ? [spec.path] : [spec.path, TRACES_PREFIX + spec.path];
}

export const defineRoute = <
  B extends TSchema | undefined,
  R extends TSchema,
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
>(
  spec: RouteSpec<B, R, P, Q>,
) => spec;
