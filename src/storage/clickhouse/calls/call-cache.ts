// Calls this process read lately, each under the version of the row it came from, so that a
// page read again needs from ClickHouse only which calls it holds and their versions (a read
// of a few small columns) instead of every column of every call (measured on chdb, the newest
// 100 roots of 1M calls: ~5 ms against ~15 ms). A call's version is the seq of its newest row:
// every change to a call writes a row with a higher seq (clickhouse/calls/call-writes.ts), so an
// entry whose version the database no longer gives is never served. The database is asked on
// every read, so several processes on one database stay consistent. Two processes writing
// parts of one call at the same microsecond can write two rows with one seq; which of them
// FINAL gives is then ClickHouse's choice until, at once, the writers' check after their
// inserts writes the merged row with a higher seq, which every cache reads anew.
import type { StoredCall } from '../../calls/call-store.js';

/** Bytes a call's entry is counted at beyond its strings (object, key, version). */
const ENTRY_OVERHEAD = 400;

interface Entry {
  readonly version: string;
  readonly call: StoredCall;
  readonly bytes: number;
}

const keyOf = (projectId: string, id: string) => `${projectId}\u0000${id}`;

/** The version of a stored call row: its seq (see the file comment). */
export const rowVersion = (seq: unknown): string => String(seq);

/** About what a call takes in memory: its strings (one byte a character) plus the entry. */
function sizeOf(call: StoredCall): number {
  let n = ENTRY_OVERHEAD;
  for (const v of Object.values(call)) if (typeof v === 'string') n += v.length;
  return n;
}

/** A least-recently-used map of calls by project and id, bounded by about `maxBytes`. */
export class CallCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** The call stored under exactly this version, or undefined. */
  get(projectId: string, id: string, version: string): StoredCall | undefined {
    const key = keyOf(projectId, id);
    const e = this.entries.get(key);
    if (e === undefined || e.version !== version) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.call;
  }

  /** Keeps `call` (not to be changed afterwards) as the row of this version. */
  set(version: string, call: StoredCall): void {
    const key = keyOf(call.project_id, call.id);
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    const bytes = sizeOf(call);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { version, call, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }
}
