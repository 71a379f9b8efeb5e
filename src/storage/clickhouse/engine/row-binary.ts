// Rows in ClickHouse's RowBinaryWithNamesAndTypes format, decoded from a byte stream as it
// arrives. Large call reads come this way rather than as JSON lines: each string is sliced out
// of the bytes once, with no line splitting and no unescaping of JSON text held inside JSON
// (the server's main thread is what limits a read of 50,000 calls). The header names the
// column types; only the ones Weft's reads produce are known, any other is an error.
import type { Readable } from 'node:stream';

/** A value: strings as strings, integers as numbers (exact below 2^53), NULL as null. */
export type RowValue = string | number | null;

/** Thrown by a read that runs past the bytes at hand: the row is tried again with more. */
const SHORT = Symbol('short');

class Cursor {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  need(n: number): void {
    if (this.pos + n > this.buf.length) throw SHORT;
  }

  varint(): number {
    let out = 0;
    let shift = 0;
    for (;;) {
      this.need(1);
      const b = this.buf[this.pos++]!;
      out += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return out;
      shift += 7;
      if (shift > 49) throw new Error('RowBinary: a length beyond 2^53');
    }
  }

  string(): string {
    const n = this.varint();
    this.need(n);
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
}

type Decoder = (c: Cursor) => RowValue;

const FIXED: Readonly<Record<string, Decoder>> = {
  String: (c) => c.string(),
  Int64: (c) => {
    c.need(8);
    const v = Number(c.buf.readBigInt64LE(c.pos));
    c.pos += 8;
    return v;
  },
  UInt64: (c) => {
    c.need(8);
    const v = Number(c.buf.readBigUInt64LE(c.pos));
    c.pos += 8;
    return v;
  },
  UInt8: (c) => {
    c.need(1);
    return c.buf[c.pos++]!;
  },
  // The type of a bare NULL: no bytes of its own (its Nullable flag says NULL).
  Nothing: () => null,
};

/** The decoder of a column type, for the types Weft's reads produce. */
export function decoderOf(type: string): Decoder {
  const nullable = /^Nullable\((.*)\)$/.exec(type);
  if (nullable !== null) {
    const inner = decoderOf(nullable[1]!);
    return (c) => {
      c.need(1);
      return c.buf[c.pos++] === 1 ? null : inner(c);
    };
  }
  const d = Object.hasOwn(FIXED, type) ? FIXED[type] : undefined;
  if (d === undefined) throw new Error(`RowBinary: column type ${type} is not decoded`);
  return d;
}

/** What a stream is checked against. */
export interface RowBinaryOptions {
  /** The column names the header must hold, in order. */
  readonly expect?: readonly string[];
  /**
   * The server's x-clickhouse-exception-tag: a server (25.11 and later) that fails after rows
   * were sent ends the stream with `\r\n__exception__\r\n<tag>` and the error, which is
   * then thrown instead of being read as rows.
   */
  readonly exceptionTag?: string;
  /** Reads the error at the end of such a stream (the client's own reader). */
  readonly errorAtEnd?: (tail: Buffer, tag: string) => Error;
}

/**
 * The rows of a RowBinaryWithNamesAndTypes stream, as arrays in column order, in chunks of
 * about `perChunk` rows (a chunk ends with the bytes at hand). Fails if the stream ends inside
 * a row (or its header), if `expect` names columns other than the header's, or with the
 * server's error when the stream ends with one; an empty stream has no rows.
 */
export async function* rowBinaryRows(
  stream: Readable | AsyncIterable<Buffer>,
  perChunk: number,
  opts: RowBinaryOptions = {},
): AsyncGenerator<RowValue[][]> {
  const marker = opts.exceptionTag === undefined ? null : Buffer.from(`\r\n__exception__\r\n${opts.exceptionTag}`);
  let pending: Buffer[] = [];
  let buffered = 0;
  /** Bytes to wait for before trying again a row that ran short (doubling: a large row is not re-read per chunk). */
  let waitFor = 0;
  let decoders: Decoder[] | null = null;
  let out: RowValue[][] = [];
  /** Set once the server's error marker is where the next row would start. */
  let failed = false;

  /** Whether the bytes at `pos` are the error marker (SHORT while they could still become it). */
  function atMarker(buf: Buffer, pos: number, final: boolean): boolean {
    if (marker === null) return false;
    const n = Math.min(buf.length - pos, marker.length);
    if (buf.compare(marker, 0, n, pos, pos + n) !== 0) return false;
    if (n === marker.length) return true;
    if (final) return false;
    throw SHORT;
  }

  /**
   * Decodes rows of `buf` until `perChunk` are waiting, the bytes run short or the error
   * marker comes; returns the offset of the first byte not decoded. `final`: no more bytes come.
   */
  function decode(buf: Buffer, final: boolean): number {
    const c = new Cursor(buf);
    let done = 0;
    try {
      if (decoders === null) {
        const n = c.varint();
        const names = Array.from({ length: n }, () => c.string());
        const types = Array.from({ length: n }, () => c.string());
        if (opts.expect !== undefined && names.join('\u0000') !== opts.expect.join('\u0000')) {
          throw new Error(`RowBinary: columns ${names.join(', ')}, expected ${opts.expect.join(', ')}`);
        }
        decoders = types.map(decoderOf);
        done = c.pos;
      }
      const ds = decoders;
      while (c.pos < buf.length && out.length < perChunk) {
        if (atMarker(buf, c.pos, final)) {
          failed = true;
          break;
        }
        const row = new Array<RowValue>(ds.length);
        for (let i = 0; i < ds.length; i++) row[i] = ds[i]!(c);
        out.push(row);
        done = c.pos;
      }
    } catch (err) {
      if (err !== SHORT) throw err;
    }
    return done;
  }

  const serverError = (tail: Buffer): Error =>
    opts.errorAtEnd?.(tail, opts.exceptionTag!) ??
    new Error(`ClickHouse failed during the read: ${tail.subarray(0, 500).toString('utf8')}`);

  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending.push(chunk);
    buffered += chunk.length;
    if (failed || buffered < waitFor) continue;
    let buf = pending.length === 1 ? pending[0]! : Buffer.concat(pending, buffered);
    // A whole result may come as one buffer (chdb's): its rows go on in chunks as they are decoded.
    for (;;) {
      buf = buf.subarray(decode(buf, false));
      if (out.length < perChunk) break;
      yield out;
      out = [];
    }
    pending = buf.length === 0 ? [] : [buf];
    buffered = buf.length;
    waitFor = failed || buf.length === 0 ? 0 : Math.max(buf.length * 2, 1 << 16);
  }
  if (failed) throw serverError(Buffer.concat(pending, buffered));
  for (;;) {
    const buf = Buffer.concat(pending, buffered);
    const rest = buf.subarray(decode(buf, true));
    if (failed) throw serverError(rest);
    if (out.length >= perChunk) {
      yield out;
      out = [];
      pending = [rest];
      buffered = rest.length;
      continue;
    }
    if (rest.length > 0)
      throw new Error(`RowBinary: the stream ended inside a row: ${rest.subarray(0, 200).toString('utf8')}`);
    break;
  }
  if (out.length > 0) yield out;
}
