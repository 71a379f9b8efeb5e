// Why a request Weft sent out (to a model provider, a judge, a remote scorer) got no usable
// answer. Thrown where the outbound layer finds the problem; a route maps them to HTTP once, like
// every WeftError, and one that answers in a shape of its own (/completions/create answers 200
// with `response.error`) catches OutboundError and shows its message.
//
// Messages name the host and port, never the path or query: some providers take their key in
// the query string (Gemini's `?key=`), and a message reaches logs and users.
//
// The catalogue (api/errors.ts) has no 502/504 codes: the upstream's failures (timeout, size,
// redirects) are UNAVAILABLE, and a refusal is the operator's policy, FORBIDDEN.
import { WeftError } from '../api/errors.js';
import { type AddressKind, describeKind } from './address-class.js';

/** The setting that allows a refused host. */
export const OUTBOUND_SETTING = 'WEFT_OUTBOUND_ALLOWED_HOSTS';

/** Every error of the outbound layer. */
export abstract class OutboundError extends WeftError {}

export interface Refusal {
  /** The URL's host: a name, or the address itself. */
  readonly host: string;
  readonly port: number;
  /** The address the host resolved to (the host itself when it is an address). */
  readonly address: string;
  readonly kind: Exclude<AddressKind, 'public'>;
  /** Whether the host is an IP address rather than a name. */
  readonly literal: boolean;
}

/** `host:port` as an entry of the setting; IPv6 addresses in brackets. */
export const hostEntry = (host: string, port: number): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

function refusalMessage(r: Refusal): string {
  const what = r.literal
    ? `${r.host} is ${describeKind(r.kind)}`
    : `${r.host} resolves to ${r.address}, ${describeKind(r.kind)}`;
  // A listed name never allows a metadata address: only the address itself does.
  if (r.kind === 'metadata' && !r.literal)
    return `refused: ${what}; only its address allows it: ${OUTBOUND_SETTING}=${hostEntry(r.address, r.port)}`;
  return `refused: ${what}; allow it with ${OUTBOUND_SETTING}=${hostEntry(r.literal ? r.address : r.host, r.port)}`;
}

/** The address a request would connect to is not public and not allowed by the operator. */
export class OutboundRefusedError extends OutboundError {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super('FORBIDDEN', refusalMessage(refusal), { setting: OUTBOUND_SETTING });
    this.refusal = refusal;
  }
}

/** A URL (given, or a redirect's Location) that is not http or https. */
export class OutboundSchemeError extends OutboundError {
  constructor(protocol: string) {
    super('INVALID_REQUEST', `refused: only http and https URLs are requested, not ${protocol}`);
  }
}

export type TimeoutPhase = 'connect' | 'total';

/**
 * `connect`: resolving the name and opening the connection (TLS included) took too long;
 * `total`: the whole exchange, redirects and the body read to its end, did.
 */
export class OutboundTimeoutError extends OutboundError {
  constructor(
    readonly phase: TimeoutPhase,
    readonly ms: number,
    where: string,
  ) {
    super(
      'UNAVAILABLE',
      phase === 'connect'
        ? `timed out: no connection to ${where} within ${ms} ms`
        : `timed out: the answer from ${where} did not end within ${ms} ms`,
    );
  }
}

/** The answer's body (decoded) passed the byte cap of the request. */
export class OutboundTooLargeError extends OutboundError {
  constructor(
    readonly limitBytes: number,
    where: string,
  ) {
    super('UNAVAILABLE', `too large: the answer from ${where} passed ${limitBytes} bytes`, {
      limit_bytes: limitBytes,
    });
  }
}

export class OutboundTooManyRedirectsError extends OutboundError {
  constructor(
    readonly maxRedirects: number,
    where: string,
  ) {
    super('UNAVAILABLE', `too many redirects: ${where} redirected more than ${maxRedirects} times`);
  }
}
