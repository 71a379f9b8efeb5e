// The file digest computed incrementally, for content that streams in (weave-api.md §3.2).
// It must equal bytesDigest (service/digest.ts) of the whole content: the SDK computes the
// same digest itself and writes it into stored objects without reading the server's.
import { createHash } from 'node:crypto';

export interface BytesDigester {
  /** Feeds the next piece of content, in order. */
  update(piece: Uint8Array): void;
  /** The digest of everything fed so far; the digester cannot be used afterwards. */
  digest(): string;
}

/** SHA-256 -> URL-safe base64 without padding -> `-`->`X`, `_`->`Y` (43 chars of [A-Za-z0-9]). */
export function createBytesDigester(): BytesDigester {
  const hash = createHash('sha256');
  return {
    update(piece) {
      hash.update(piece);
    },
    digest() {
      return hash.digest('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');
    },
  };
}
