// Binds a RouteSpec to a handler: the spec's body schema validates the request, the
// handler gets the parsed body typed from the same schema.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { RouteSpec } from '../api/route-spec.js';
import type { RequestContext } from './request-context.js';

/** A response body that is already JSON text (calls keep their stored JSON as text). */
export class RawJson {
  constructor(readonly text: string) {}
}

type BodyOf<S extends RouteSpec> = S['body'] extends TSchema ? Static<S['body']> : undefined;

export type RouteHandler<S extends RouteSpec> = (
  body: BodyOf<S>,
  ctx: RequestContext,
  req: FastifyRequest,
  reply: FastifyReply,
) => Promise<unknown>;

const CONTENT_TYPE = { json: 'application/json; charset=utf-8', jsonl: 'application/jsonl; charset=utf-8', 'octet-stream': 'application/octet-stream' } as const;

export function bindRoute<S extends RouteSpec>(app: FastifyInstance, spec: S, handler: RouteHandler<S>): void {
  const validates = spec.body !== undefined && (spec.requestBody ?? 'json') === 'json';
  app.route({
    method: spec.method,
    url: spec.path,
    ...(validates ? { schema: { body: spec.body } } : {}),
    handler: async (req, reply) => {
      const out = await handler(req.body as BodyOf<S>, req.weft, req, reply);
      if (reply.sent) return reply;
      if (out instanceof RawJson) return reply.type(CONTENT_TYPE.json).send(out.text);
      if (out instanceof Readable || Buffer.isBuffer(out)) {
        return reply.type(CONTENT_TYPE[spec.reply ?? 'json']).send(out);
      }
      return reply.type(CONTENT_TYPE.json).send(JSON.stringify(out));
    },
  });
}
