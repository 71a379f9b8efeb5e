// What a web page in the user's browser may not do to Weft, checked on every request before
// anything is read or written (request-context.ts calls it first):
//  * while open (no API keys), reach it by a name that is not this machine's (host-policy.ts);
//  * change anything from another site. A browser marks its requests: `Sec-Fetch-Site`, and
//    `Origin` on every write. A form post or a `text/plain` fetch needs no CORS preflight, so
//    without this check any page could store calls or files. While open, a write must be
//    same-origin (or carry neither header, as the SDKs, curl and exporters send); with keys,
//    one marked cross-site is refused too, since a browser may attach a key it was given at a
//    Basic-auth prompt. Same-site pages on another port of a keyed server are left to the key.
// Weft grants no CORS permission on any route, so no other origin can read an answer.
import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '../service/auth/auth-errors.js';
import { hostnameOf, type HostPolicy } from './host-policy.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The host (with port) of an Origin header; null for `null` or anything unparseable. */
function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : null;
  } catch {
    return null;
  }
}

function refuseHost(host: string | undefined): never {
  const shown = host === undefined ? 'no Host header' : `Host "${host}"`;
  throw new ForbiddenError(
    `${shown} is not answered while Weft runs without API keys (open mode): only localhost, loopback addresses and the names or addresses in WEFT_ALLOWED_HOSTS are, ` +
      'so that no web page can reach this server under a name of its own (DNS rebinding). ' +
      `To serve ${host === undefined ? 'such requests' : `"${hostnameOf(host) ?? host}"`}, add it to WEFT_ALLOWED_HOSTS (--allowed-hosts), or create an API key (weft keys create).`,
    { setting: 'WEFT_ALLOWED_HOSTS' },
  );
}

function refuseCrossSite(why: string): never {
  throw new ForbiddenError(
    `Cross-site write refused: ${why}. A web page may not change data in Weft; the SDKs, curl and exporters send no such headers, and Weft's own UI is same-origin.`,
  );
}

/** Throws ForbiddenError (403) for a request a web page must not make; `keyed`: API keys exist. */
export function browserGuard(hosts: HostPolicy): (req: FastifyRequest, keyed: boolean) => void {
  return (req, keyed) => {
    const host = header(req, 'host');
    if (!keyed && !hosts.allows(host)) refuseHost(host);
    if (SAFE_METHODS.has(req.method)) return;
    const site = header(req, 'sec-fetch-site');
    if (site === 'cross-site') refuseCrossSite('the browser marks this request Sec-Fetch-Site: cross-site');
    if (keyed) return;
    if (site === 'same-site')
      refuseCrossSite('the browser marks this request Sec-Fetch-Site: same-site (another port or subdomain)');
    const origin = header(req, 'origin');
    if (origin === undefined) return;
    const from = originHost(origin);
    if (from === null || host === undefined || from !== host.trim().toLowerCase())
      refuseCrossSite(`Origin ${origin} is not this server's (${host ?? 'no Host'})`);
  };
}
