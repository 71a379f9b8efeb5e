// The body bytes of each request and of its answer, for the request log and /metrics. A body
// with a Content-Length is that many bytes. One without (chunked) is counted as it streams
// through: a request body on its way to Fastify's parser, an answer on its way out (the JSON
// Lines of a query, a file's content). Multipart uploads are the exception: @fastify/multipart
// reads them from the raw request, past any hook, so without a Content-Length they count 0.
import { pipeline, Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

interface Counted {
  in: number;
  out: number;
}

const counted = new WeakMap<FastifyRequest, Counted>();

function countsOf(req: FastifyRequest): Counted {
  let c = counted.get(req);
  if (c === undefined) counted.set(req, (c = { in: 0, out: 0 }));
  return c;
}

/** A pass-through that adds each chunk's bytes to `onBytes`. */
function counter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

/** A header's value as a byte count, or null when absent or not one. */
function declaredLength(v: unknown): number | null {
  if (v === undefined || v === null || v === '') return null;
  const n = Number(Array.isArray(v) ? v[0] : v);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

const isMultipart = (req: FastifyRequest) =>
  String(req.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/');

export function registerRequestBytes(app: FastifyInstance): void {
  app.addHook('preParsing', async (req, _reply, payload) => {
    if (declaredLength(req.headers['content-length']) !== null || isMultipart(req)) return payload;
    const c = countsOf(req);
    // Fastify's body limit reads receivedEncodedLength off the stream it is handed.
    const through = counter((n) => {
      c.in += n;
      (through as Transform & { receivedEncodedLength: number }).receivedEncodedLength = c.in;
    });
    return pipeline(payload, through, () => {});
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const streamed =
      payload !== null && typeof payload === 'object' && typeof (payload as Readable).pipe === 'function';
    if (!streamed || declaredLength(reply.getHeader('content-length')) !== null) return payload;
    const c = countsOf(req);
    return pipeline(
      payload as Readable,
      counter((n) => (c.out += n)),
      () => {},
    );
  });
}

/** Body bytes received and sent for a request that has been answered. */
export function requestBytes(req: FastifyRequest, reply: FastifyReply): { readonly in: number; readonly out: number } {
  const c = counted.get(req);
  return {
    in: declaredLength(req.headers['content-length']) ?? c?.in ?? 0,
    // A HEAD answer declares the length of a body it does not send.
    out: req.method === 'HEAD' ? 0 : (declaredLength(reply.getHeader('content-length')) ?? c?.out ?? 0),
  };
}
