// Calls on SQLite: one row per call, start and end parts upserted into it by the writer
// (sqlite-call-writes.ts; each batch acknowledged only after its commit), reads streamed
// from a dedicated reader connection in chunks so the event loop keeps turning. Expired
// calls (expire_at <= now) are invisible at once and hard-deleted later by purgeExpired.
import type { CallEndPart, CallPart, CallsQuery, CallStartPart, CallStore, StoredCall } from '../call-store.js';
import type { SqliteDb } from './sqlite-database.js';
import { nowMicros } from '../../time.js';
import { buildCallByIdSelect, buildCallsCount, buildCallsSelect } from './sqlite-calls-select.js';
import { createReaderPool } from './sqlite-reader-pool.js';
import type { CallRow } from './sqlite-call-writes.js';
import type { SqliteWriter } from './sqlite-writer.js';

const ROWS_PER_TICK = 256;

const startBytes = (s: CallStartPart) =>
  Buffer.byteLength(s.attributes) + Buffer.byteLength(s.inputs) + s.op_name.length + (s.display_name?.length ?? 0) + 96;
const endBytes = (e: CallEndPart) => Buffer.byteLength(e.output) + Buffer.byteLength(e.summary) + (e.exception ? Buffer.byteLength(e.exception) : 0) + 32;

const startRow = (s: CallStartPart) => ({ ...s, input_refs: JSON.stringify(s.input_refs), start_bytes: startBytes(s) });
const endRow = (e: CallEndPart) => ({ ...e, output_refs: JSON.stringify(e.output_refs), end_bytes: endBytes(e) });

/** Approximate in-memory size of rows waiting to be written: UTF-8 bytes of strings, 8 per other value. */
export function rowsBytes(rows: readonly CallRow[]): number {
  let n = 0;
  for (const [, params] of rows) {
    for (const v of Object.values(params)) n += typeof v === 'string' ? Buffer.byteLength(v) : 8;
  }
  return n;
}

export function createSqliteCallStore(db: SqliteDb, path: string, writer: SqliteWriter): CallStore & { close(): void } {
  const readers = createReaderPool(path, db);
  // Point reads, one prepared statement per combination of the size flags.
  const byId = [false, true].map((size) => [false, true].map((total) => {
    const { sql, args } = buildCallByIdSelect(size, total);
    return { statement: db.prepare(sql), args };
  }));

  // A batch usually holds both parts of most of its calls: those are written as one row
  // insert instead of an insert and an update. Start and end fields are disjoint, so merging
  // keeps the result of applying the parts in order (a repeated part: the last one wins).
  function rowsOf(parts: readonly CallPart[]): CallRow[] {
    const merged = new Map<string, { start?: CallStartPart; end?: CallEndPart }>();
    for (const p of parts) {
      const key = `${p.mode === 'start' ? p.start.project_id : p.end.project_id}\u0000${p.mode === 'start' ? p.start.id : p.end.id}`;
      const entry = merged.get(key) ?? {};
      if (p.mode === 'start') entry.start = p.start;
      else entry.end = p.end;
      merged.set(key, entry);
    }
    const rows: CallRow[] = [];
    for (const { start, end } of merged.values()) {
      if (start && end) rows.push([2, { ...startRow(start), ...endRow(end) }]);
      else if (start) rows.push([0, startRow(start)]);
      else if (end) rows.push([1, endRow(end)]);
    }
    return rows;
  }

  async function* query(q: CallsQuery): AsyncGenerator<StoredCall> {
    const { sql, params } = buildCallsSelect(q, nowMicros());
    // A small bounded answer (a point read, a page) is read at once on the main connection:
    // no cursor to keep open, so no reader connection is needed.
    if (q.limit !== null && q.limit <= ROWS_PER_TICK) {
      yield* readers.prepare(db, sql).all(...params) as StoredCall[];
      return;
    }
    const reader = readers.acquire();
    try {
      const it = readers.prepare(reader, sql).iterate(...params) as IterableIterator<StoredCall>;
      try {
        let n = 0;
        for (const row of it) {
          yield row;
          // Let other requests run between chunks of a long stream.
          if (++n % ROWS_PER_TICK === 0) await new Promise((r) => setImmediate(r));
        }
      } finally {
        it.return?.();
      }
    } finally {
      readers.release(reader);
    }
  }

  return {
    writeParts(parts) {
      const rows = rowsOf(parts);
      return writer.run('calls.write', [rows], { bytes: rowsBytes(rows), sheddable: true });
    },
    limitWriteQueue(bytes) {
      writer.limit(bytes);
    },
    purgeExpired: (now, limit) => writer.run('calls.purgeExpired', [BigInt(Math.floor(now)), limit]),
    updateDisplayName: (projectId, callId, displayName) => writer.run('calls.updateName', [projectId, callId, displayName]),
    async get(projectId, callId, opts) {
      const { statement, args } = byId[opts.storageSize ? 1 : 0]![opts.totalStorageSize ? 1 : 0]!;
      const row = statement.get(...args(projectId, callId, nowMicros())) as StoredCall | undefined;
      return row ?? null;
    },
    query,
    async count(q) {
      const { sql, params } = buildCallsCount(q, nowMicros());
      const row = readers.prepare(db, sql).get(...params) as { count: number; total_storage_size_bytes: number | null };
      return { count: row.count, total_storage_size_bytes: row.total_storage_size_bytes ?? null };
    },
    async delete(projectId, callIds, at) {
      return callIds.length === 0 ? 0 : writer.run('calls.delete', [projectId, callIds, at]);
    },
    close() {
      readers.close();
    },
  };
}
