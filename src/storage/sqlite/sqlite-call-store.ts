// Calls on SQLite: one row per call, start and end parts upserted into it by the writer
// (sqlite-call-writes.ts; each batch acknowledged only after its commit), reads streamed
// from a dedicated reader connection in chunks so the event loop keeps turning. Expired
// calls (expire_at <= now) are invisible at once and hard-deleted later by purgeExpired.
import type { CallEndPart, CallPart, CallsQuery, CallStartPart, CallStore, StoredCall } from '../call-store.js';
import type { SqliteDb } from './sqlite-database.js';
import { nowMicros } from '../../time.js';
import { buildCallByIdSelect, buildCallsCount, buildCallsSelect } from './sqlite-calls-select.js';
import { createReaderPool } from './sqlite-reader-pool.js';
import { endBytes, endValues, startBytes, startValues, type CallRow } from './sqlite-call-writes.js';
import type { SqliteWriter } from './sqlite-writer.js';
import { createReadThread } from './sqlite-read-thread.js';

const ROWS_PER_TICK = 256;

export function createSqliteCallStore(db: SqliteDb, path: string, writer: SqliteWriter): CallStore & { close(): Promise<void> } {
  const readers = createReaderPool(path, db);
  // Counts may scan a whole project: on the reader thread, never on this one.
  const counter = createReadThread(db, path);
  // Point reads, one prepared statement per combination of the size flags.
  const byId = [false, true].map((size) => [false, true].map((total) => {
    const { sql, args } = buildCallByIdSelect(size, total);
    return { statement: db.prepare(sql), args };
  }));

  // A batch usually holds both parts of most of its calls: those are written as one row
  // insert instead of an insert and an update. Start and end fields are disjoint, so merging
  // keeps the result of applying the parts in order (a repeated part: the last one wins).
  // Returns the rows and their stored bytes (the write queue's measure).
  function rowsOf(parts: readonly CallPart[]): { rows: CallRow[]; bytes: number } {
    const merged = new Map<string, { start?: CallStartPart; end?: CallEndPart }>();
    for (const p of parts) {
      const part = p.mode === 'start' ? p.start : p.end;
      const key = `${part.project_id}\u0000${part.id}`;
      const entry = merged.get(key);
      if (entry === undefined) merged.set(key, p.mode === 'start' ? { start: p.start } : { end: p.end });
      else if (p.mode === 'start') entry.start = p.start;
      else entry.end = p.end;
    }
    const rows: CallRow[] = [];
    let bytes = 0;
    for (const { start, end } of merged.values()) {
      const sb = start ? startBytes(start) : 0;
      const eb = end ? endBytes(end) : 0;
      bytes += sb + eb;
      const id = (start ?? end)!;
      if (start && end) rows.push([2, [id.project_id, id.id, ...startValues(start, sb), ...endValues(end, eb)]]);
      else if (start) rows.push([0, [id.project_id, id.id, ...startValues(start, sb)]]);
      else if (end) rows.push([1, [id.project_id, id.id, ...endValues(end, eb)]]);
    }
    return { rows, bytes };
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
      const { rows, bytes } = rowsOf(parts);
      return writer.run('calls.write', [rows], { bytes, sheddable: true });
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
      const [row] = await counter.all<{ count: number; total_storage_size_bytes: number | null }>(sql, params);
      return { count: row!.count, total_storage_size_bytes: row!.total_storage_size_bytes ?? null };
    },
    async delete(projectId, callIds, at) {
      return callIds.length === 0 ? 0 : writer.run('calls.delete', [projectId, callIds, at]);
    },
    async close() {
      await counter.close();
      readers.close();
    },
  };
}
