// The one place where errors become HTTP answers. Every answer is JSON; a client
// mistake is always a 4xx; only Weft's own faults are 500s, and those are logged.
import type { FastifyError, FastifyInstance } from 'fastify';
import { RequestValidationError, WeftError } from '../api/errors.js';
import { toValidationIssues, tooManyItems } from './validation-issues.js';

function weftBody(err: WeftError): Record<string, unknown> {
  if (err instanceof RequestValidationError) return { detail: err.issues };
  return { reason: err.message, error_code: err.code, error_type: err.name, ...err.extra };
}

/**
 * `storageFault`: the store's reading of an error of its own (a full disk, a failing database)
 * as a typed error, or null.
 */
export function registerErrorHandler(
  app: FastifyInstance,
  storageFault: (err: unknown) => Error | null = () => null,
): void {
  app.setErrorHandler((thrown: FastifyError | WeftError | Error, req, reply) => {
    const err = thrown instanceof WeftError ? thrown : (storageFault(thrown) ?? thrown);
    if (err instanceof WeftError) {
      // A 5xx is Weft's or its disk's trouble, not the client's: the operator sees it in the log.
      // A 503 (a full ingest queue, an engine out of reach) is a state the client is told to wait
      // out, not a fault: one warn line with its reason, no stack (under load there is one per
      // refused request).
      if (err.status === 503) {
        const cause = thrown === err ? undefined : (thrown as Error).message;
        req.log.warn(
          { reason: err.message, ...(cause === undefined ? {} : { cause }) },
          'unavailable: the client is told to retry',
        );
      } else if (err.status >= 500) req.log.error({ err, cause: thrown === err ? undefined : thrown }, err.message);
      // 429 and 503 say when to come back, in the header clients read and in the body.
      if (typeof err.extra.retry_after === 'number') reply.header('Retry-After', String(err.extra.retry_after));
      return reply.status(err.status).send(weftBody(err));
    }
    const fe = err as FastifyError;
    const tooMany = fe.validation ? tooManyItems(fe.validation as never, fe.validationContext) : null;
    if (tooMany !== null) return reply.status(tooMany.status).send(weftBody(tooMany));
    if (fe.validation) {
      // FastAPI names the parts of a request body / query / path.
      const parts: Record<string, string> = { querystring: 'query', params: 'path', headers: 'header' };
      const part = parts[fe.validationContext ?? 'body'] ?? fe.validationContext ?? 'body';
      const issues = toValidationIssues(fe.validation as never, part);
      return reply.status(422).send({ detail: issues });
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit;
      return reply.status(413).send({
        reason: 'Request too large',
        error_code: 'REQUEST_TOO_LARGE',
        error_type: 'RequestTooLarge',
        limit_bytes: limit,
      });
    }
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, empty body, unsupported media type...
      return reply
        .status(status)
        .send({ reason: fe.message, error_code: fe.code ?? 'INVALID_REQUEST', error_type: 'RequestError' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send({ reason: 'Internal server error', error_code: 'INTERNAL', error_type: 'InternalError' });
  });
  app.setNotFoundHandler((req, reply) => {
    reply
      .status(404)
      .send({ reason: `No route ${req.method} ${req.url}`, error_code: 'NOT_FOUND', error_type: 'RouteNotFound' });
  });
}
