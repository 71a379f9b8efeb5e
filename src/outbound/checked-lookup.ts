// The `lookup` a socket resolves its host name with: the name is resolved once, every address
// is judged by the policy, and only the addresses that pass are handed to the socket, which
// connects to one of them. What is checked is what is connected to: no second resolution can
// answer differently in between (DNS rebinding).
//
// Addresses that fail are dropped, not fatal: a dual-stack host with a public IPv4 and a
// unique-local IPv6 address still works over IPv4. Only when none passes is the request refused,
// naming the first refused address.
import { promises as dns } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy, OutboundTarget } from './address-policy.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * Resolves a host name to its addresses. The default is the system's resolver (getaddrinfo, so
 * /etc/hosts is read); tests inject one that maps a public-looking name to 127.0.0.1.
 */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

const notFound = (hostname: string) =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });

/** A lookup for the sockets of requests to `target`. */
export function checkedLookup(resolve: Resolver, policy: AddressPolicy, target: OutboundTarget): LookupFunction {
  return (hostname, options, callback) => {
    const family =
      options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    resolve(hostname).then(
      (found) => {
        const passed: ResolvedAddress[] = [];
        let refusal: Error | null = null;
        for (const a of found) {
          if (family !== 0 && a.family !== family) continue;
          const r = policy.refusal(target, a.address);
          if (r === null) passed.push(a);
          else refusal ??= r;
        }
        const first = passed[0];
        if (first === undefined) return callback(refusal ?? notFound(hostname), '');
        // With autoSelectFamily (Node's default) the socket asks for every address and tries them in turn.
        if (options.all)
          return callback(
            null,
            passed.map((a) => ({ address: a.address, family: a.family })),
          );
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
