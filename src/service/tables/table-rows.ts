// Row and table digests (weave-api.md §3.2): a row digest is the object digest of the row
// (canonical, sort_keys JSON -> strDigest); a table digest is the lowercase hex SHA-256 of
// the concatenated row digests in table order (the empty table hashes "").
import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../../api/errors.js';
import type { TableRowInput } from '../../storage/tables/table-store.js';
import { canonicalJson, strDigest } from '../json/digest.js';

/** The row's canonical JSON text and its digest; nesting deeper than the stack allows is a 400. */
export function encodeRow(row: unknown): TableRowInput {
  let val: string;
  try {
    val = canonicalJson(row);
  } catch (e) {
    if (e instanceof RangeError) throw new InvalidRequestError('Table row is nested too deeply');
    throw e;
  }
  return { digest: strDigest(val), val };
}

export function tableDigest(rowDigests: readonly string[]): string {
  return createHash('sha256').update(rowDigests.join(''), 'utf8').digest('hex');
}

/** Collects encoded rows, each digest once (a table may repeat a row). */
export class NewRows {
  private readonly byDigest = new Map<string, string>();

  /** Encodes and remembers the row; returns its digest. */
  add(row: unknown): string {
    const r = encodeRow(row);
    if (!this.byDigest.has(r.digest)) this.byDigest.set(r.digest, r.val);
    return r.digest;
  }

  list(): TableRowInput[] {
    return [...this.byDigest].map(([digest, val]) => ({ digest, val }));
  }
}
