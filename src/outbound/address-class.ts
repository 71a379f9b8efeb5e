// What an outbound socket would reach at an IP address: the public internet, or one of the
// special-purpose ranges a request must not reach unless the operator says so. The ranges are
// IANA's special-purpose registries as ipaddr.js knows them; the cloud metadata endpoints are a
// kind of their own because a host name the operator allows must still never lead to them
// (address-policy.ts), and Azure's WireServer sits in public space.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressKind =
  | 'public'
  | 'private'
  | 'loopback'
  | 'linkLocal'
  | 'uniqueLocal'
  | 'carrierGradeNat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'metadata'
  | 'reserved';

export interface ClassifiedAddress {
  /**
   * The address in its canonical text; an IPv4-mapped IPv6 address (::ffff:127.0.0.1) as the
   * IPv4 address it reaches, so that listing either form allows both.
   */
  readonly address: string;
  readonly kind: AddressKind;
}

/**
 * Instance metadata and platform endpoints of the clouds Weft runs on: AWS (IMDS over IPv4 and
 * IPv6, ECS task metadata), GCP, Azure and OpenStack (169.254.169.254, GCP's IPv6 fd20:ce::254),
 * Azure's WireServer, Alibaba Cloud and Oracle Cloud's legacy address.
 */
export const METADATA_ADDRESSES: ReadonlySet<string> = new Set([
  '169.254.169.254',
  '169.254.170.2',
  'fd00:ec2::254',
  'fd20:ce::254',
  '168.63.129.16',
  '100.100.100.200',
  '192.0.0.192',
]);

// Every public IPv6 address is global unicast (2000::/3); ipaddr.js calls anything it has no
// range for "unicast", which would take in the deprecated IPv4-compatible ::127.0.0.1.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
// NAT64 (RFC 6052's well-known prefix) reaches the IPv4 address in its last 32 bits.
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const V4_KINDS: Readonly<Record<string, AddressKind>> = {
  unicast: 'public',
  private: 'private',
  loopback: 'loopback',
  linkLocal: 'linkLocal',
  carrierGradeNat: 'carrierGradeNat',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};
const V6_KINDS: Readonly<Record<string, AddressKind>> = {
  loopback: 'loopback',
  linkLocal: 'linkLocal',
  uniqueLocal: 'uniqueLocal',
  multicast: 'multicast',
  unspecified: 'unspecified',
};

function v4Kind(ip: ipaddr.IPv4): AddressKind {
  return METADATA_ADDRESSES.has(ip.toString()) ? 'metadata' : (V4_KINDS[ip.range()] ?? 'reserved');
}

function v6Kind(ip: ipaddr.IPv6): AddressKind {
  if (ip.match(NAT64)) return v4Kind(new ipaddr.IPv4(ip.toByteArray().slice(12)));
  if (METADATA_ADDRESSES.has(ip.toString())) return 'metadata';
  const range = ip.range();
  if (range === 'unicast') return ip.match(GLOBAL_UNICAST_V6) ? 'public' : 'reserved';
  return V6_KINDS[range] ?? 'reserved';
}

/** The kind of a literal IP address; anything else (a name, a malformed address) is `reserved`. */
export function classifyAddress(text: string): ClassifiedAddress {
  if (isIP(text) === 0) return { address: text, kind: 'reserved' };
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv4') return { address: ip.toString(), kind: v4Kind(ip as ipaddr.IPv4) };
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    const v4 = v6.toIPv4Address();
    return { address: v4.toString(), kind: v4Kind(v4) };
  }
  return { address: v6.toString(), kind: v6Kind(v6) };
}

const DESCRIPTIONS: Readonly<Record<AddressKind, string>> = {
  public: 'a public address',
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local (private) address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  metadata: 'a cloud metadata address',
  reserved: 'a reserved address',
};

/** "a private address", for messages. */
export const describeKind = (kind: AddressKind): string => DESCRIPTIONS[kind];
