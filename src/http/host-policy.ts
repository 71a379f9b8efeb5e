// Which `Host` names Weft answers while it runs without API keys (open mode): the defence
// against DNS rebinding. A web page on any site can point its own name at 127.0.0.1 and then
// read this server as same-origin; its requests still carry its own name as `Host`, so a
// keyless server answers only names that cannot be such a page's:
//  * localhost and *.localhost (browsers resolve them to loopback themselves, RFC 6761);
//  * loopback addresses (127.0.0.0/8, ::1);
//  * the names and addresses the operator lists (WEFT_ALLOWED_HOSTS, e.g. the LAN address of
//    a server run with --insecure-open); `.example.com` covers its subdomains.
import { isLoopback } from './auth-mode.js';

export interface HostPolicy {
  /** The check is off (WEFT_ALLOWED_HOSTS=*). */
  readonly any: boolean;
  /** Whether a request's Host header (name or address, maybe with a port) is answered. */
  allows(hostHeader: string | undefined): boolean;
  /** What is answered, for the startup line. */
  describe(): string;
}

/** The host part of a Host header or URL authority: lowercased, without port and brackets; null when malformed. */
export function hostnameOf(hostHeader: string): string | null {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0 || !(end === h.length - 1 || /^:\d{1,5}$/.test(h.slice(end + 1)))) return null;
    return h.slice(1, end);
  }
  const colon = h.lastIndexOf(':');
  const name = colon >= 0 && /^\d{1,5}$/.test(h.slice(colon + 1)) ? h.slice(0, colon) : h;
  return name === '' || name.includes(':') ? null : name;
}

const isLocalhost = (name: string) => name === 'localhost' || name.endsWith('.localhost');

export function hostPolicy(allowed: readonly string[]): HostPolicy {
  const any = allowed.includes('*');
  const exact = new Set(allowed.filter((n) => !n.startsWith('.')));
  const domains = allowed.filter((n) => n.startsWith('.'));
  const listed = (name: string) => exact.has(name) || domains.some((d) => name === d.slice(1) || name.endsWith(d));
  return {
    any,
    allows(hostHeader) {
      if (any) return true;
      const name = hostHeader === undefined ? null : hostnameOf(hostHeader);
      if (name === null) return false;
      return isLocalhost(name) || isLoopback(name) || listed(name);
    },
    describe() {
      if (any) return 'any Host name (WEFT_ALLOWED_HOSTS=*): every web page this machine opens can reach it';
      return ['localhost', '127.0.0.1', '[::1]', ...allowed].join(', ');
    },
  };
}
