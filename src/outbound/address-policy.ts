// Which addresses an outbound request may connect to: public ones, and those the operator lists
// in WEFT_OUTBOUND_ALLOWED_HOSTS. The policy judges the address a socket is about to connect to,
// after name resolution (checked-lookup.ts), so a public-looking name that resolves to 127.0.0.1
// is judged as 127.0.0.1.
//
// An entry is `host` (any port) or `host:port` (that port only); IPv6 addresses in brackets when
// they carry a port (`[::1]:11434`). A name entry allows that name whatever it resolves to, except
// to a cloud metadata address; an address entry allows connecting to that address whatever name
// led there, metadata addresses included: listing the address is the only way to reach one.
import { isIP } from 'node:net';
import { classifyAddress } from './address-class.js';
import { OutboundRefusedError } from './outbound-error.js';

export interface AllowedHost {
  /** A lowercased name, or an address in its canonical text (classifyAddress). */
  readonly host: string;
  /** null: any port. */
  readonly port: number | null;
  readonly isAddress: boolean;
}

/** Where a request goes: the URL's host (no brackets) and its port, explicit or the scheme's. */
export interface OutboundTarget {
  readonly host: string;
  readonly port: number;
}

export interface AddressPolicy {
  /** null when a request to `target` may connect to `address`; else why not. */
  refusal(target: OutboundTarget, address: string): OutboundRefusedError | null;
}

const NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

function toPort(raw: string, entry: string): number {
  const port = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || port < 1 || port > 65535) throw new Error(`"${entry}" has no valid port`);
  return port;
}

/**
 * One entry of the setting, lowercased and trimmed by the caller. Throws an Error saying what is
 * wrong with it: a URL, a path, a bad port, a malformed name.
 */
export function parseAllowedHost(entry: string): AllowedHost {
  let host = entry;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2] !== undefined) port = toPort(bracketed[2], entry);
    if (isIP(host) !== 6) throw new Error(`"${entry}": only an IPv6 address goes in brackets`);
  } else if (isIP(entry) !== 6) {
    const colon = entry.lastIndexOf(':');
    if (colon >= 0) {
      host = entry.slice(0, colon);
      port = toPort(entry.slice(colon + 1), entry);
    }
  }
  if (isIP(host) !== 0) return { host: classifyAddress(host).address, port, isAddress: true };
  if (!NAME.test(host)) throw new Error(`"${entry}" is not a host name or IP address with an optional :port`);
  return { host, port, isAddress: false };
}

/** `api.example.com.` and `api.example.com` are one name. */
const bareName = (host: string) => host.toLowerCase().replace(/\.$/, '');

export function addressPolicy(allowedHosts: readonly string[]): AddressPolicy {
  const entries = allowedHosts.map((e) => parseAllowedHost(e.trim().toLowerCase()));
  return {
    refusal(target, address) {
      const c = classifyAddress(address);
      const name = bareName(target.host);
      const listed = entries.some(
        (e) =>
          (e.port === null || e.port === target.port) &&
          (e.isAddress ? e.host === c.address : e.host === name && c.kind !== 'metadata'),
      );
      if (listed || c.kind === 'public') return null;
      return new OutboundRefusedError({
        host: target.host,
        port: target.port,
        address: c.address,
        kind: c.kind,
        literal: isIP(target.host) !== 0,
      });
    },
  };
}
