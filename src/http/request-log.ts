// The server's log: pino through Fastify, at WEFT_LOG_LEVEL, as JSON lines or (WEFT_LOG_FORMAT=
// pretty) one readable line each. Every answered request is one line at `info`, written when
// the answer is finished: method, route pattern, status, milliseconds, body bytes in and out,
// the projects the request names and the id of its API key. Never the key, a header or a
// body. Fastify's own two lines per request ("incoming request", "request completed") are
// replaced by it; errors are logged at `error` with their stack (error-handler.ts, and here an
// answer that failed while it was being sent).
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { LogFormat } from '../config.js';
import { projectsOfRequest } from './route-projects.js';
import { requestBytes } from './request-bytes.js';
import { routeOf } from './request-metrics.js';
import { prettyLog, type LogDestination } from './pretty-log.js';

export const REQUEST_MESSAGE = 'request';

const infoEnabled = (reply: FastifyReply) =>
  (reply.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') === true;

/** The fields of a request's line. The URL only when no route matched: it is what was asked for. */
function requestFields(req: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  const route = routeOf(req);
  const bytes = requestBytes(req, reply);
  const projects = projectsOfRequest(req);
  return {
    method: req.method,
    route,
    ...(route === null ? { url: req.url } : {}),
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    bytes_in: bytes.in,
    bytes_out: bytes.out,
    project: projects.length > 0 ? projects.join(',') : null,
    // Null in open mode, on open routes and when the key was refused.
    key_id: req.weft?.keyId ?? null,
  };
}

class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ err: error }, 'the answer failed while being sent');
    if (infoEnabled(reply)) reply.log.info(requestFields(req, reply), REQUEST_MESSAGE);
  }
}

export interface LoggingOptions {
  /** pino's level names: silent, fatal, error, warn, info, debug, trace. */
  readonly level: string;
  readonly format: LogFormat;
  /** Where lines go (default: stdout). */
  readonly destination?: LogDestination;
}

/** Fastify's logger options for `opts`: spread into the Fastify constructor's options. */
export function fastifyLogging(opts: LoggingOptions): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  const logController = new RequestLogController();
  if (opts.level === 'silent') return { logger: false, logController };
  const stream = opts.format === 'pretty' ? prettyLog(opts.destination ?? process.stdout) : opts.destination;
  return {
    logController,
    logger: {
      level: opts.level,
      // Level names and ISO times: what people read, and what log shippers parse without a table.
      formatters: { level: (label: string) => ({ level: label }) },
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      ...(stream ? { stream } : {}),
    },
  };
}
