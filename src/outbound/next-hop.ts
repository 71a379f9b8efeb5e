// Redirects, followed by hand as fetch follows them (WHATWG Fetch, "HTTP-redirect fetch") so that
// every hop opens its own checked connection: a redirect from an allowed host to a private
// address is refused like a direct request to it.
//
// One rule stricter than fetch: on a hop to another origin only a few plain headers go along.
// Fetch drops Authorization alone, but providers take their keys in headers of their own
// (x-api-key, api-key, x-goog-api-key), and none of them may follow a redirect off the origin.

/** One request on the wire. */
export interface Hop {
  readonly url: URL;
  /** Uppercase. */
  readonly method: string;
  readonly headers: Headers;
  readonly body: Buffer | null;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

const CROSS_ORIGIN_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-language',
  'content-language',
  'content-type',
  'user-agent',
]);

/**
 * Where a redirect answer points, resolved against the URL it answered; null when the answer is
 * not a redirect or names no Location (it is then the final answer, as in fetch).
 */
export function redirectTarget(status: number, location: string | undefined, from: URL): URL | null {
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return null;
  try {
    return new URL(location, from);
  } catch {
    throw new TypeError(`${from.host} redirected to a malformed Location`);
  }
}

/** The request to send to `to` after `hop` was answered with the redirect `status`. */
export function nextHop(hop: Hop, status: number, to: URL): Hop {
  // 303, and 301 or 302 after a POST, become a GET without a body (fetch's rule, every browser's).
  const toGet =
    (status === 303 && hop.method !== 'HEAD') || ((status === 301 || status === 302) && hop.method === 'POST');
  const sameOrigin = to.origin === hop.url.origin;
  const headers = new Headers();
  for (const [name, value] of hop.headers) {
    if (!sameOrigin && !CROSS_ORIGIN_HEADERS.has(name)) continue;
    if (toGet && name.startsWith('content-')) continue;
    headers.append(name, value);
  }
  return { url: to, method: toGet ? 'GET' : hop.method, headers, body: toGet ? null : hop.body };
}
