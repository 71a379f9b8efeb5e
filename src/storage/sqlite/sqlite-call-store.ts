// Calls on SQLite: one row per call, start and end parts upserted into it by the call
// writer (a worker thread; each batch acknowledged only after its commit), reads streamed
// from a dedicated reader connection in chunks so the event loop keeps turning. Expired
// calls (expire_at <= now) are invisible at once and hard-deleted later by purgeExpired.
import type { CallEndPart, CallPart, CallsQuery, CallStartPart, CallStore, StoredCall } from '../call-store.js';
import type { SqliteDb } from './sqlite-database.js';
import { nowMicros } from '../../time.js';
import { buildCallByIdSelect, buildCallsCount, buildCallsSelect } from './sqlite-calls-select.js';
import { createReaderPool } from './sqlite-reader-pool.js';
import { createCallWriter, type WriteRow } from './sqlite-call-writer.js';

const ROWS_PER_TICK = 256;

const startBytes = (s: CallStartPart) =>
  Buffer.byteLength(s.attributes) + Buffer.byteLength(s.inputs) + s.op_name.length + (s.display_name?.length ?? 0) + 96;
const endBytes = (e: CallEndPart) => Buffer.byteLength(e.output) + Buffer.byteLength(e.summary) + (e.exception ? Buffer.byteLength(e.exception) : 0) + 32;

const START_COLUMNS = [
  'trace_id', 'parent_id', 'thread_id', 'turn_id', 'op_name', 'display_name', 'started_at', 'attributes', 'inputs',
  'input_refs', 'wb_user_id', 'wb_run_id', 'wb_run_step', 'start_bytes', 'expire_at',
] as const;
const END_COLUMNS = ['ended_at', 'exception', 'output', 'summary', 'output_refs', 'wb_run_step_end', 'end_bytes'] as const;

/**
 * Upsert of one part's columns (names from the fixed lists above, values as parameters).
 * An existing display_name is kept: one set by /call/update survives a retried start.
 * So is the expire_at of a start already written: a retried start after a change of the
 * project's time-to-live does not move the expiry (SET expressions see the old row).
 */
const KEEP: Readonly<Record<string, string>> = {
  display_name: 'display_name = COALESCE(calls.display_name, excluded.display_name)',
  expire_at: 'expire_at = CASE WHEN calls.started_at IS NULL THEN excluded.expire_at ELSE calls.expire_at END',
};
function upsertSql(columns: readonly string[]): string {
  const set = columns.map((c) => KEEP[c] ?? `${c} = excluded.${c}`);
  return `INSERT INTO calls (project_id, id, ${columns.join(', ')}) VALUES (@project_id, @id, ${columns.map((c) => `@${c}`).join(', ')})
    ON CONFLICT (project_id, id) DO UPDATE SET ${set.join(', ')}`;
}

const startRow = (s: CallStartPart) => ({ ...s, input_refs: JSON.stringify(s.input_refs), start_bytes: startBytes(s) });
const endRow = (e: CallEndPart) => ({ ...e, output_refs: JSON.stringify(e.output_refs), end_bytes: endBytes(e) });

export function createSqliteCallStore(db: SqliteDb, path: string): CallStore & { close(): Promise<void> } {
  const readers = createReaderPool(path, db);
  // Statement indexes of the writer: 0 = start part, 1 = end part, 2 = both.
  const writer = createCallWriter(db, path, [upsertSql(START_COLUMNS), upsertSql(END_COLUMNS), upsertSql([...START_COLUMNS, ...END_COLUMNS])]);
  // An update part must survive a later (retried) start: display_name written here wins
  // because the start upsert keeps an existing display_name.
  const updateName = db.prepare(`
    INSERT INTO calls (project_id, id, display_name) VALUES (?, ?, ?)
    ON CONFLICT (project_id, id) DO UPDATE SET display_name = excluded.display_name`);

  // Expired calls, oldest expiry first (the calls_expire index), and their feedback.
  const expired = db.prepare('SELECT rowid, project_id, id FROM calls WHERE expire_at IS NOT NULL AND expire_at <= ? ORDER BY expire_at LIMIT ?');
  const dropCall = db.prepare('DELETE FROM calls WHERE rowid = ?');
  const dropFeedback = db.prepare('DELETE FROM feedback WHERE project_id = ? AND weave_ref = ?');
  const purge = db.transaction((now: bigint, limit: number) => {
    const rows = expired.all(now, limit) as { rowid: number; project_id: string; id: string }[];
    for (const r of rows) {
      dropCall.run(r.rowid);
      dropFeedback.run(r.project_id, `weave:///${r.project_id}/call/${r.id}`);
    }
    return rows.length;
  });

  // Point reads, one prepared statement per combination of the size flags.
  const byId = [false, true].map((size) => [false, true].map((total) => {
    const { sql, args } = buildCallByIdSelect(size, total);
    return { statement: db.prepare(sql), args };
  }));

  // A batch usually holds both parts of most of its calls: those are written as one row
  // insert instead of an insert and an update. Start and end fields are disjoint, so merging
  // keeps the result of applying the parts in order (a repeated part: the last one wins).
  function rowsOf(parts: readonly CallPart[]): WriteRow[] {
    const merged = new Map<string, { start?: CallStartPart; end?: CallEndPart }>();
    for (const p of parts) {
      const key = `${p.mode === 'start' ? p.start.project_id : p.end.project_id}\u0000${p.mode === 'start' ? p.start.id : p.end.id}`;
      const entry = merged.get(key) ?? {};
      if (p.mode === 'start') entry.start = p.start;
      else entry.end = p.end;
      merged.set(key, entry);
    }
    const rows: WriteRow[] = [];
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
      return writer.write(rowsOf(parts));
    },
    limitWriteQueue(bytes) {
      writer.limit(bytes);
    },
    async purgeExpired(now, limit) {
      return purge(BigInt(Math.floor(now)), limit);
    },
    async updateDisplayName(projectId, callId, displayName) {
      updateName.run(projectId, callId, displayName);
    },
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
      if (callIds.length === 0) return 0;
      const ids = JSON.stringify(callIds);
      const run = db.transaction(() => {
        const found = db.prepare(`
          WITH RECURSIVE doomed(id) AS (
            SELECT id FROM calls WHERE project_id = ? AND id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL
            UNION
            SELECT c.id FROM calls c JOIN doomed d ON c.parent_id = d.id WHERE c.project_id = ? AND c.deleted_at IS NULL
          ) SELECT id FROM doomed`).pluck().all(projectId, ids, projectId) as string[];
        const mark = db.prepare('UPDATE calls SET deleted_at = ? WHERE project_id = ? AND id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL');
        mark.run(at, projectId, JSON.stringify(found));
        return new Set([...callIds, ...found]).size;
      });
      return run();
    },
    async close() {
      await writer.close();
      readers.close();
    },
  };
}
