// Calls on SQLite: one row per call, start and end parts upserted into it in one
// transaction per batch (acknowledged only after commit), reads streamed from a
// dedicated reader connection in chunks so the event loop keeps turning.
import type { CallEndPart, CallPart, CallsQuery, CallStartPart, CallStore, StoredCall } from '../call-store.js';
import type { SqliteDb } from './sqlite-database.js';
import { buildCallByIdSelect, buildCallsCount, buildCallsSelect } from './sqlite-calls-select.js';
import { createReaderPool } from './sqlite-reader-pool.js';

const ROWS_PER_TICK = 256;

const startBytes = (s: CallStartPart) =>
  Buffer.byteLength(s.attributes) + Buffer.byteLength(s.inputs) + s.op_name.length + (s.display_name?.length ?? 0) + 96;
const endBytes = (e: CallEndPart) => Buffer.byteLength(e.output) + Buffer.byteLength(e.summary) + (e.exception ? Buffer.byteLength(e.exception) : 0) + 32;

export function createSqliteCallStore(db: SqliteDb, path: string): CallStore & { close(): Promise<void> } {
  const readers = createReaderPool(path, db);
  const upsertStart = db.prepare(`
    INSERT INTO calls (project_id, id, trace_id, parent_id, thread_id, turn_id, op_name, display_name, started_at,
      attributes, inputs, input_refs, wb_user_id, wb_run_id, wb_run_step, start_bytes)
    VALUES (@project_id, @id, @trace_id, @parent_id, @thread_id, @turn_id, @op_name, @display_name, @started_at,
      @attributes, @inputs, @input_refs, @wb_user_id, @wb_run_id, @wb_run_step, @start_bytes)
    ON CONFLICT (project_id, id) DO UPDATE SET
      trace_id = excluded.trace_id, parent_id = excluded.parent_id, thread_id = excluded.thread_id,
      turn_id = excluded.turn_id, op_name = excluded.op_name,
      display_name = COALESCE(calls.display_name, excluded.display_name), started_at = excluded.started_at,
      attributes = excluded.attributes, inputs = excluded.inputs, input_refs = excluded.input_refs,
      wb_user_id = excluded.wb_user_id, wb_run_id = excluded.wb_run_id, wb_run_step = excluded.wb_run_step,
      start_bytes = excluded.start_bytes`);
  const upsertEnd = db.prepare(`
    INSERT INTO calls (project_id, id, ended_at, exception, output, summary, output_refs, wb_run_step_end, end_bytes)
    VALUES (@project_id, @id, @ended_at, @exception, @output, @summary, @output_refs, @wb_run_step_end, @end_bytes)
    ON CONFLICT (project_id, id) DO UPDATE SET
      ended_at = excluded.ended_at, exception = excluded.exception, output = excluded.output,
      summary = excluded.summary, output_refs = excluded.output_refs,
      wb_run_step_end = excluded.wb_run_step_end, end_bytes = excluded.end_bytes`);
  // An update part must survive a later (retried) start: display_name written here wins
  // because the start upsert keeps an existing display_name.
  const updateName = db.prepare(`
    INSERT INTO calls (project_id, id, display_name) VALUES (?, ?, ?)
    ON CONFLICT (project_id, id) DO UPDATE SET display_name = excluded.display_name`);

  // Point reads, one prepared statement per combination of the size flags.
  const byId = [false, true].map((size) => [false, true].map((total) => db.prepare(buildCallByIdSelect(size, total))));

  const writeAll = db.transaction((parts: readonly CallPart[]) => {
    for (const p of parts) {
      if (p.mode === 'start') {
        const s = p.start;
        upsertStart.run({ ...s, input_refs: JSON.stringify(s.input_refs), start_bytes: startBytes(s) });
      } else {
        const e = p.end;
        upsertEnd.run({ ...e, output_refs: JSON.stringify(e.output_refs), end_bytes: endBytes(e) });
      }
    }
  });

  async function* query(q: CallsQuery): AsyncGenerator<StoredCall> {
    const { sql, params } = buildCallsSelect(q);
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
    async writeParts(parts) {
      writeAll(parts);
    },
    async updateDisplayName(projectId, callId, displayName) {
      updateName.run(projectId, callId, displayName);
    },
    async get(projectId, callId, opts) {
      const row = byId[opts.storageSize ? 1 : 0]![opts.totalStorageSize ? 1 : 0]!.get(projectId, callId) as StoredCall | undefined;
      return row ?? null;
    },
    query,
    async count(q) {
      const { sql, params } = buildCallsCount(q);
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
      readers.close();
    },
  };
}
