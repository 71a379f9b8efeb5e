// The one way Weft sends a request to a URL a user or a stored object names (model providers,
// judges, remote scorers): a fetch that connects only where the address policy allows
// (address-policy.ts), judged on the address actually connected to and again on every redirect,
// and that bounds each exchange in time and bytes. It has fetch's signature, so clients that
// take a custom fetch (the `openai` package's `fetch` option) use it as they are, streaming
// bodies (server-sent events) included.
//
// Built on node:http and node:https, not the global fetch: the global fetch lets a caller choose
// the address a connection goes to only through an undici Agent (`dispatcher`), and undici is
// bundled inside Node, not importable without adding it as a dependency. A `lookup` on the
// request is net.connect's documented hook, honoured by http and https alike, TLS verifying the
// certificate against the URL's name while the socket connects to the checked address.
import { Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { addressPolicy } from './address-policy.js';
import { type Resolver, systemResolver } from './checked-lookup.js';
import { type Hop, nextHop, redirectTarget } from './next-hop.js';
import { OutboundTimeoutError, OutboundTooLargeError, OutboundTooManyRedirectsError } from './outbound-error.js';
import { sendHop, whereOf } from './outbound-hop.js';
import { type BodyOptions, isEncoded, responseBody } from './response-body.js';

export interface OutboundLimits {
  /** Resolving the name and connecting (TLS handshake included), per hop; ms. */
  readonly connectTimeoutMs: number;
  /** The whole exchange, every redirect and the body read to its end; ms. */
  readonly totalTimeoutMs: number;
  /** Bytes of the decoded body; past them reading it fails with OutboundTooLargeError. */
  readonly maxResponseBytes: number;
  /** Redirects followed; one more is OutboundTooManyRedirectsError. */
  readonly maxRedirects: number;
}

/**
 * A model can think for minutes before its last token, so the total is generous; a provider that
 * does not even accept a connection in 10 s is down.
 */
export const DEFAULT_LIMITS: OutboundLimits = Object.freeze({
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 300_000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxRedirects: 5,
});

export interface SafeFetchOptions {
  /** The entries of WEFT_OUTBOUND_ALLOWED_HOSTS (Config.outboundAllowedHosts). */
  readonly allowedHosts: readonly string[];
  /** Limits of every call, over DEFAULT_LIMITS. */
  readonly limits?: Partial<OutboundLimits>;
  /** How names are resolved; the system's resolver by default. */
  readonly resolver?: Resolver;
  /** Certificate authorities trusted for https instead of Node's own (a private CA, tests). */
  readonly ca?: string | Buffer | (string | Buffer)[];
}

/** fetch, with limits for this one call over those of its createSafeFetch. */
export type SafeFetch = (
  input: string | URL | Request,
  init?: RequestInit,
  limits?: Partial<OutboundLimits>,
) => Promise<Response>;

const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

function toResponse(res: IncomingMessage, hop: Hop, redirected: boolean, body: BodyOptions): Response {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  let stream: ReadableStream<Uint8Array> | null = null;
  if (hop.method === 'HEAD' || NULL_BODY_STATUSES.has(status)) {
    res.resume();
    body.onDone();
  } else {
    if (!isEncoded(res) && Number(res.headers['content-length']) > body.maxBytes) {
      res.destroy();
      throw new OutboundTooLargeError(body.maxBytes, body.where);
    }
    stream = responseBody(res, body);
  }
  const response = new Response(stream, { status, statusText: res.statusMessage ?? '', headers });
  Object.defineProperties(response, { url: { value: hop.url.href }, redirected: { value: redirected } });
  return response;
}

/**
 * A fetch under `options`. Kept-alive connections are reused only by the fetch that opened them,
 * so a socket in its pool was checked under its own policy.
 */
export function createSafeFetch(options: SafeFetchOptions): SafeFetch {
  const policy = addressPolicy(options.allowedHosts);
  const resolver = options.resolver ?? systemResolver;
  const base: OutboundLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const agents = {
    http: new HttpAgent({ keepAlive: true }),
    https: new HttpsAgent({ keepAlive: true, ...(options.ca === undefined ? {} : { ca: options.ca }) }),
  };
  return async (input, init, callLimits) => {
    const limits: OutboundLimits = { ...base, ...callLimits };
    const request = new Request(input, init);
    const body = request.body === null ? null : Buffer.from(await request.arrayBuffer());
    let hop: Hop = { url: new URL(request.url), method: request.method, headers: request.headers, body };
    // Ends the exchange, whichever hop or body read is under way, with its reason as the error.
    const exchange = new AbortController();
    const timer = setTimeout(
      () => exchange.abort(new OutboundTimeoutError('total', limits.totalTimeoutMs, whereOf(hop.url))),
      limits.totalTimeoutMs,
    );
    const onCallerAbort = () => exchange.abort(request.signal.reason);
    request.signal.addEventListener('abort', onCallerAbort, { once: true });
    if (request.signal.aborted) onCallerAbort();
    const done = () => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onCallerAbort);
    };
    const context = { policy, resolver, agents, connectTimeoutMs: limits.connectTimeoutMs, signal: exchange.signal };
    try {
      for (let redirects = 0; ; redirects++) {
        const res = await sendHop(hop, context);
        const to =
          request.redirect === 'manual' ? null : redirectTarget(res.statusCode ?? 0, res.headers.location, hop.url);
        if (to === null) {
          const bodyOptions = {
            maxBytes: limits.maxResponseBytes,
            where: whereOf(hop.url),
            signal: exchange.signal,
            onDone: done,
          };
          return toResponse(res, hop, redirects > 0, bodyOptions);
        }
        res.destroy();
        if (request.redirect === 'error')
          throw new TypeError(`${whereOf(hop.url)} redirected; the request's redirect mode is "error"`);
        if (redirects >= limits.maxRedirects)
          throw new OutboundTooManyRedirectsError(limits.maxRedirects, whereOf(hop.url));
        hop = nextHop(hop, res.statusCode ?? 0, to);
      }
    } catch (err) {
      done();
      throw err;
    }
  };
}
