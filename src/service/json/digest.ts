// Content digests shared by objects, tables and files (weave-api.md §3.2, sdk-traffic.md §4).
// bytesDigest is a hard contract: the SDK computes file digests itself and writes them into
// stored objects, so the server must produce the identical 43-character string.
import { createHash } from 'node:crypto';
import { pythonJsonDumps } from './python-json.js';

export { pythonJsonDumps } from './python-json.js';

/** SHA-256 -> URL-safe base64 without padding, then `-`->`X` and `_`->`Y`: 43 chars of [A-Za-z0-9]. */
export function bytesDigest(buf: Uint8Array): string {
  return createHash('sha256').update(buf).digest('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');
}

/** bytesDigest of the UTF-8 encoding of `s`. */
export function strDigest(s: string): string {
  return bytesDigest(Buffer.from(s, 'utf8'));
}

/**
 * The canonical JSON text of a value: Python `json.dumps(v, sort_keys=True)`.
 * Keys are sorted because the newest weave/shared/digest.py and the TS SDK's valDigest
 * sort them; sorting also makes the digest independent of the order in which a client
 * happened to serialize keys, and JS objects reorder integer-like keys anyway, so
 * insertion order could not be reproduced faithfully.
 */
export function canonicalJson(v: unknown): string {
  return pythonJsonDumps(v, { sortKeys: true });
}

/** Digest of a JSON value (object vals, table rows): strDigest(canonicalJson(v)). */
export function valDigest(v: unknown): string {
  return strDigest(canonicalJson(v));
}

/** True for strings shaped like a digest: 43 chars of [A-Za-z0-9] or a 64-hex table digest. */
export function isContentHash(s: string): boolean {
  return /^[A-Za-z0-9]{43}$/.test(s) || /^[0-9a-f]{64}$/.test(s);
}
