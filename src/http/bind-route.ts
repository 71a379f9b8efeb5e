// Binds a RouteSpec to a handler: the spec's body schema validates the request, the
// handler gets the parsed body typed from the same schema.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { servedPaths, type RouteSpec } from '../api/route-spec.js';
import { QUERY_BODY_LIMIT } from '../api/limits.js';
import { ROUTES } from '../api/routes.js';
import type { RequestContext } from './request-context.js';
import { compileProjects } from './route-projects.js';

/** A response body that is already JSON text (calls keep their stored JSON as text). */
export class RawJson {
  constructor(readonly text: string) {}
}

type BodyOf<S extends RouteSpec> = S['body'] extends TSchema ? Static<S['body']> : undefined;
type ParamsOf<S> =
  S extends RouteSpec<TSchema | undefined, TSchema, infer P, TSchema | undefined>
    ? P extends TSchema
      ? Static<P>
      : Record<string, never>
    : never;
type QueryOf<S> =
  S extends RouteSpec<TSchema | undefined, TSchema, TSchema | undefined, infer Q>
    ? Q extends TSchema
      ? Static<Q>
      : Record<string, never>
    : never;

/** What a handler receives besides the body: the caller, path and query parameters. */
export interface RouteInput<S extends RouteSpec> {
  readonly params: ParamsOf<S>;
  readonly query: QueryOf<S>;
}

export type RouteHandler<S extends RouteSpec> = (
  body: BodyOf<S>,
  ctx: RequestContext,
  input: RouteInput<S>,
  reply: FastifyReply,
) => Promise<unknown>;

const CONTENT_TYPE = {
  json: 'application/json; charset=utf-8',
  jsonl: 'application/jsonl; charset=utf-8',
  'octet-stream': 'application/octet-stream',
  otlp: 'application/x-protobuf',
  prometheus: 'text/plain; version=0.0.4; charset=utf-8',
} as const;

const TABLE = new Set<RouteSpec>(ROUTES);

export function bindRoute<S extends RouteSpec>(app: FastifyInstance, spec: S, handler: RouteHandler<S>): void {
  // A route outside the table would miss the OpenAPI document, its access check and the sweeps.
  if (!TABLE.has(spec)) throw new Error(`route ${spec.method} ${spec.path} is bound but not in api/routes.ts`);
  const validates = spec.body !== undefined && (spec.requestBody ?? 'json') === 'json';
  const schema = {
    ...(validates ? { body: spec.body } : {}),
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.querystring ? { querystring: spec.querystring } : {}),
  };
  // A body that stores nothing is small (api/limits.ts): a 30 MB query is refused before it is parsed.
  const bodyLimit = spec.carriesData
    ? undefined
    : Math.min(QUERY_BODY_LIMIT, app.initialConfig.bodyLimit ?? QUERY_BODY_LIMIT);
  const config = { projectsOf: compileProjects(spec) };
  for (const url of servedPaths(spec))
    app.route({
      method: spec.method,
      url,
      schema,
      config,
      ...(bodyLimit === undefined ? {} : { bodyLimit }),
      handler: async (req: FastifyRequest, reply) => {
        const input = { params: req.params, query: req.query } as RouteInput<S>;
        const out = await handler(req.body as BodyOf<S>, req.weft, input, reply);
        if (reply.sent) return reply;
        if (out instanceof RawJson) return reply.type(CONTENT_TYPE.json).send(out.text);
        if (out instanceof Readable || Buffer.isBuffer(out)) {
          return reply.type(CONTENT_TYPE[spec.reply ?? 'json']).send(out);
        }
        return reply.type(CONTENT_TYPE.json).send(JSON.stringify(out));
      },
    });
}
