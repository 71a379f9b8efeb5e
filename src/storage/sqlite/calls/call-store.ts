// Calls on SQLite: one row per call, start and end parts upserted into it by the writer
// (sqlite/calls/call-writes.ts; each batch acknowledged only after its commit); queries streamed in
// chunks from the reader threads (sqlite/engine/read-threads.ts), point reads on this thread. Expired
// calls (expire_at <= now) are invisible at once and hard-deleted later by purgeExpired.
import { buildFieldPaths } from './call-paths.js';
import type {
  CallEndPart,
  CallMetricRow,
  CallPart,
  CallProjectSummary,
  CallStartPart,
  CallStore,
  StoredCall,
  ThreadTurns,
  TraceSkeletonRow,
} from '../../calls/call-store.js';
import type { CallsQuery } from '../../../query/calls-query.js';
import type { SqliteDb } from '../engine/database.js';
import { callKeyOf, keyParams } from './call-keys.js';
import { nowMicros, type Micros } from '../../../time.js';
import { buildCallByIdSelect, buildCallsCount, buildCallsSelect } from './call-select.js';
import { buildThreadTurnsSelect } from './thread-select.js';
import { buildMetricRows, buildStartedRange } from './call-metrics.js';
import { endBytes, endValues, startBytes, startValues, type CallRow } from './call-writes.js';
import type { SqliteWriter } from '../engine/writer.js';
import type { ReadThreads } from '../engine/read-threads.js';

const TOTAL_BYTES = `SELECT COALESCE(SUM(start_bytes + end_bytes), 0) AS bytes FROM calls
  WHERE project_id = ? AND started_at IS NOT NULL AND deleted_at IS NULL AND (expire_at IS NULL OR expire_at > ?)`;

// calls_started (project_id, started_at, id, deleted_at, expire_at) covers this: one pass over
// the index in project order, no table rows read, no temp b-tree for the grouping.
const PROJECT_SUMMARIES = `SELECT project_id, COUNT(*) AS call_count, MAX(started_at) AS last_started_at
  FROM calls
  WHERE started_at IS NOT NULL AND deleted_at IS NULL AND (expire_at IS NULL OR expire_at > ?)
  GROUP BY project_id`;

const TRACE_SKELETON = `SELECT id, parent_id, op_name, display_name, started_at, ended_at, exception, summary
  FROM calls
  WHERE trace_key = ${callKeyOf('?')} AND +project_id = ? AND trace_id = ? AND started_at IS NOT NULL AND deleted_at IS NULL AND (expire_at IS NULL OR expire_at > ?)
  ORDER BY started_at, id`;
/** Rows per chunk of a trace skeleton: small rows, read as arrays. */
const SKELETON_ROWS_PER_CHUNK = 1000;

/** Rows per chunk of metric rows: four small columns each; the service's pass over one takes ~10 ms. */
const METRIC_ROWS_PER_CHUNK = 2000;

/** Rows per chunk of a query's stream (one round trip to the reader thread each). */
const ROWS_PER_CHUNK = 256;

/** Point reads run here, on `db`; queries and counts, which may scan, on the reader threads. */
export function createSqliteCallStore(db: SqliteDb, reads: ReadThreads, writer: SqliteWriter): CallStore {
  // Point reads, one prepared statement per combination of the size flags.
  const byId = [false, true].map((size) =>
    [false, true].map((total) => {
      const { sql, args } = buildCallByIdSelect(size, total);
      return { statement: db.prepare(sql), args };
    }),
  );

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
    for await (const rows of reads.stream<StoredCall>(sql, params, ROWS_PER_CHUNK)) yield* rows;
  }

  return {
    writeParts(parts) {
      const { rows, bytes } = rowsOf(parts);
      return writer.run('calls.write', [rows], { bytes, sheddable: true });
    },
    limitWriteQueue(bytes) {
      writer.limit(bytes);
    },
    queuedBytes: () => writer.queuedBytes(),
    purgeExpired: (now, limit) => writer.run('calls.purgeExpired', [BigInt(Math.floor(now)), limit]),
    updateDisplayName: (projectId, callId, displayName) =>
      writer.run('calls.updateName', [projectId, callId, displayName]),
    async get(projectId, callId, opts) {
      const { statement, args } = byId[opts.storageSize ? 1 : 0]![opts.totalStorageSize ? 1 : 0]!;
      const row = statement.get(...args(projectId, callId, nowMicros())) as StoredCall | undefined;
      return row ?? null;
    },
    query,
    async count(q) {
      const { sql, params } = buildCallsCount(q, nowMicros());
      const [row] = await reads.all<{ count: number; total_storage_size_bytes: number | null }>(sql, params);
      return { count: row!.count, total_storage_size_bytes: row!.total_storage_size_bytes ?? null };
    },
    async threadTurns(projectId, filter) {
      const { sql, params } = buildThreadTurnsSelect(projectId, filter, nowMicros());
      const rows = await reads.all<{ thread_id: string; turns: string }>(sql, params);
      return rows.map((r) => ({ thread_id: r.thread_id, turns: JSON.parse(r.turns) as ThreadTurns['turns'] }));
    },
    async totalStorageSize(projectId) {
      const [row] = await reads.all<{ bytes: number }>(TOTAL_BYTES, [projectId, nowMicros()]);
      return row!.bytes;
    },
    projectSummaries: () => reads.all<CallProjectSummary>(PROJECT_SUMMARIES, [nowMicros()]),
    traceSkeleton: (projectId, traceId) =>
      reads.stream<TraceSkeletonRow>(
        TRACE_SKELETON,
        [...keyParams(traceId), projectId, traceId, nowMicros()],
        SKELETON_ROWS_PER_CHUNK,
        { raw: true },
      ),
    async startedRange(q, from, to) {
      const { sql, params } = buildStartedRange(q, from, to, nowMicros());
      const [row] = await reads.all<{ count: number; first: Micros | null; last: Micros | null }>(sql, params);
      return row!;
    },
    metricRows(q, from, to) {
      const { sql, params } = buildMetricRows(q, from, to, nowMicros());
      return reads.stream<CallMetricRow>(sql, params, METRIC_ROWS_PER_CHUNK, { raw: true });
    },
    async fieldPaths(q, limit) {
      const { sql, params } = buildFieldPaths(q, limit, nowMicros());
      return (await reads.all<{ p: string }>(sql, params)).map((r) => r.p);
    },
    async delete(projectId, callIds, at) {
      return callIds.length === 0 ? 0 : writer.run('calls.delete', [projectId, callIds, at]);
    },
  };
}
