// One request on a checked connection, answered with its status and headers; the body is left on
// the socket for response-body.ts to read as the caller reads it.
import type { Agent as HttpAgent, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { AddressPolicy, OutboundTarget } from './address-policy.js';
import { checkedLookup, type Resolver } from './checked-lookup.js';
import type { Hop } from './next-hop.js';
import { hostEntry, OutboundSchemeError, OutboundTimeoutError } from './outbound-error.js';

export interface HopContext {
  readonly policy: AddressPolicy;
  readonly resolver: Resolver;
  readonly agents: { readonly http: HttpAgent; readonly https: HttpsAgent };
  readonly connectTimeoutMs: number;
  /** Aborted, with the reason as the error, when the exchange must end (total timeout, the caller). */
  readonly signal: AbortSignal;
}

/** The URL's host without brackets, and its port (the scheme's when the URL names none). */
export function targetOf(url: URL): OutboundTarget {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
}

/** `host:port` of a URL, for messages: never its path or query, which may hold a key. */
export function whereOf(url: URL): string {
  const t = targetOf(url);
  return hostEntry(t.host, t.port);
}

// The framing of the request is this module's, and the Host header must name the host that was
// checked: a caller's values for these are dropped.
const OWN_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

function wireHeaders(hop: Hop): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of hop.headers) if (!OWN_HEADERS.has(name)) headers[name] = value;
  if (hop.body !== null) headers['content-length'] = String(hop.body.length);
  return headers;
}

/**
 * Sends `hop` and resolves with the answer once its headers arrive. Rejects with
 * OutboundRefusedError before any connection when the address is not allowed (a literal address
 * is judged here: sockets resolve only names), with OutboundTimeoutError('connect') when resolving
 * and connecting take longer than the context allows, and with the signal's reason on abort.
 */
export function sendHop(hop: Hop, ctx: HopContext): Promise<IncomingMessage> {
  const { url } = hop;
  const tls = url.protocol === 'https:';
  if (!tls && url.protocol !== 'http:') return Promise.reject(new OutboundSchemeError(url.protocol));
  const target = targetOf(url);
  const refusal = isIP(target.host) === 0 ? null : ctx.policy.refusal(target, target.host);
  if (refusal !== null) return Promise.reject(refusal);
  if (ctx.signal.aborted) return Promise.reject(ctx.signal.reason);
  return new Promise((resolve, reject) => {
    const req = (tls ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname: target.host,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers: wireHeaders(hop),
      agent: tls ? ctx.agents.https : ctx.agents.http,
      lookup: checkedLookup(ctx.resolver, ctx.policy, target),
    });
    const cleanup = () => {
      clearTimeout(connectTimer);
      ctx.signal.removeEventListener('abort', onAbort);
    };
    const fail = (err: Error) => {
      cleanup();
      reject(err);
      req.destroy(err);
    };
    const connectTimer = setTimeout(
      () => fail(new OutboundTimeoutError('connect', ctx.connectTimeoutMs, hostEntry(target.host, target.port))),
      ctx.connectTimeoutMs,
    );
    const onAbort = () => fail(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    req.once('socket', (socket) => {
      // A kept-alive socket is connected already; a new one is once its TLS handshake is done.
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once(tls ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.once('response', (res) => {
      cleanup();
      resolve(res);
    });
    // Kept for the request's life: an error after the answer (the socket reset while the body is
    // read) reaches the body's reader through the response, and must not go unhandled here.
    req.on('error', (err) => {
      cleanup();
      reject(err);
    });
    req.end(hop.body ?? undefined);
  });
}
