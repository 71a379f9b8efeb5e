// Who is calling. With no API key stored (open mode: loopback, or --insecure-open) every
// request is the one configured local user, allowed everything. Once any key exists,
// every request to a non-open route must carry a live key: its user becomes the caller
// and its roles decide access (http/auth-guard.ts). Before either, a request a web page must
// not make is refused (browser-guard.ts). The server, never the client,
// decides wb_user_id.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteAccess } from '../api/route-spec.js';
import type { AuthStore } from '../storage/auth/auth-store.js';
import { OPEN_ACCESS, type Access } from '../service/auth/auth-access.js';
import { hashKey } from '../service/auth/auth-keys.js';
import { keyFromHeaders } from './auth-header.js';

export interface RequestContext {
  readonly userId: string;
  readonly username: string;
  readonly access: Access;
  /** The id of the API key used (null in open mode and on open routes), e.g. for rate limits. */
  readonly keyId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    weft: RequestContext;
  }
}

export interface IdentityOptions {
  /** The configured local user of open mode. */
  readonly local: { readonly userId: string; readonly username: string };
  readonly auth: AuthStore;
  /** The access a request's route declares (undefined: no such route). */
  readonly accessOf: (req: FastifyRequest) => RouteAccess | undefined;
  /** Whether a request to a `monitor` route comes from a trusted monitor (monitor-access.ts); default: never. */
  readonly trustedMonitor?: (req: FastifyRequest) => boolean;
  /** Refuses what a web page must not do (browser-guard.ts), before anything else; `keyed`: keys exist. */
  readonly guard: (req: FastifyRequest, keyed: boolean) => void;
}

const NO_ACCESS: Access = { all: false, grants: [] };

/**
 * A script's fetch in a browser (Sec-Fetch-Mode other than navigate: the web UI) gets no
 * Basic challenge: the browser would answer it with its own login dialog, which blocks the
 * request; the UI asks for a key itself. SDKs and navigations get the challenge.
 */
function challenge(req: FastifyRequest): boolean {
  const mode = req.headers['sec-fetch-mode'];
  return mode === undefined || mode === 'navigate';
}

function unauthorized(req: FastifyRequest, reply: FastifyReply, reason: string): FastifyReply {
  if (challenge(req)) reply.header('www-authenticate', 'Basic realm="weft"');
  return reply
    .status(401)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ reason, error_code: 'UNAUTHORIZED', error_type: 'UnauthorizedError' }));
}

export function registerRequestContext(app: FastifyInstance, opts: IdentityOptions): void {
  const openCtx: RequestContext = { ...opts.local, access: OPEN_ACCESS, keyId: null };
  const anonymous: RequestContext = { ...opts.local, access: NO_ACCESS, keyId: null };
  app.decorateRequest('weft', null as unknown as RequestContext);
  // onRequest: a request without a valid key is refused before its body is read.
  app.addHook('onRequest', async (req, reply) => {
    const access = opts.accessOf(req);
    const keyed = await opts.auth.hasKeys();
    opts.guard(req, keyed);
    if (!keyed) {
      req.weft = openCtx;
      return;
    }
    if (access === undefined || access === 'open') {
      req.weft = anonymous;
      return;
    }
    // A trusted monitor reads a monitor route without a key; auth-guard.ts relies on it: a
    // request there without a key id got in this way.
    if (access === 'monitor' && opts.trustedMonitor?.(req) === true) {
      req.weft = anonymous;
      return;
    }
    const key = keyFromHeaders(req.headers);
    if (key === null)
      return unauthorized(
        req,
        reply,
        'Missing API key: send Authorization: Basic base64("api:<key>") or Bearer <key> (or a wandb-api-key header)',
      );
    const found = await opts.auth.findKey(hashKey(key));
    if (found === null) return unauthorized(req, reply, 'Invalid or revoked API key');
    req.weft = {
      userId: found.user.id,
      username: found.user.name,
      access: { all: false, grants: found.grants },
      keyId: found.keyId,
    };
  });
}
