// The ClickHouse CallStore: one row per call (clickhouse/calls/call-rows.ts), written by
// clickhouse/calls/call-writes.ts, read newest-row-first by clickhouse/calls/call-select.ts. Writes are
// acknowledged once ClickHouse has stored them; the bytes of parts being written are bounded
// as on SQLite (a batch that would pass the bound while others are in flight is refused).
import type { ClickHouseClient } from '@clickhouse/client';
import {
  WriteQueueFullError,
  type CallMetricRow,
  type CallStore,
  type StoredCall,
  type ThreadTurns,
  type TraceSkeletonRow,
} from '../../calls/call-store.js';
import { CALL_COLUMNS, type CallsQuery } from '../../../query/calls-query.js';
import { nowMicros, type Micros } from '../../../time.js';
import { SINGLE_SERVER, deleteStatement, type ChDdlMode } from '../engine/ddl.js';
import { selectRows } from '../engine/client.js';
import { chIdentifier } from '../engine/dialect.js';
import { deletionRow, renameRow } from './call-rows.js';
import { callWrites } from './call-writes.js';
import { groupWrites } from '../engine/write-groups.js';
import { buildFieldPaths } from './call-paths.js';
import { streamWithLeaves, withLeaves } from './call-leaves.js';
import {
  type LeafReads,
  CALLS_SELECT_COLUMNS,
  buildCallsMatched,
  buildCallsSelect,
  liveCallsFrom,
  newStatement,
  storedCallOf,
  USAGE_SQL,
} from './call-select.js';
import { DEFAULT_CALL_CACHE_BYTES, callPages } from './call-pages.js';
import { ROWS_PER_CHUNK, rowReader } from '../engine/rows.js';
import { liveAt } from './live.js';

/** Most call rows one grouped write takes (several requests' batches together). */
const ROWS_PER_GROUP = 10_000;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** A live call's newest row (live_until is 0 for a row without a start). */
const LIVE = liveAt('{now:Int64}');

/** `callCacheBytes`: the bound of the calls kept to serve pages read again (clickhouse/calls/call-cache.ts; 0: none). */
export function createClickHouseCallStore(
  client: ClickHouseClient,
  database: string,
  mode: ChDdlMode = SINGLE_SERVER,
  callCacheBytes = DEFAULT_CALL_CACHE_BYTES,
): CallStore {
  const db = chIdentifier(database);
  const writes = callWrites(client, database);
  const writeGrouped = groupWrites(writes.write, ROWS_PER_GROUP, 1);
  let queued = 0;
  let limitBytes = Number.POSITIVE_INFINITY;
  const { rowsOf, allRows } = rowReader(client);
  const pages = callPages(client, database, { cacheBytes: callCacheBytes });

  /** Bytes of the live calls of each of these traces. */
  async function traceBytes(projectId: string, traceIds: readonly string[]): Promise<Map<string, number>> {
    if (traceIds.length === 0) return new Map();
    const rows = await selectRows<{ trace_id: string; bytes: string }>(
      client,
      `SELECT trace_id, sum(start_bytes + end_bytes) AS bytes FROM ${db}.calls FINAL
        PREWHERE project_id = {p:String} AND trace_id IN (SELECT arrayJoin({t:Array(String)})) WHERE ${LIVE} GROUP BY trace_id`,
      { p: projectId, t: [...new Set(traceIds)], now: nowMicros() },
    );
    return new Map(rows.map((r) => [r.trace_id, Number(r.bytes)]));
  }

  function query(q: CallsQuery): AsyncGenerator<StoredCall> {
    return streamWithLeaves(client, database, q, (leaves) => queryWith(q, leaves));
  }

  async function* queryWith(q: CallsQuery, leaves: LeafReads): AsyncGenerator<StoredCall> {
    // A page sorted by start time is read through a bound on it (clickhouse/calls/call-pages.ts); any
    // other query, or a page no bound gives whole, is read unbounded.
    const page = await pages(q, leaves);
    if (page !== null) {
      yield* withTotals(q, page);
      return;
    }
    const { sql, params } = buildCallsSelect(database, q, nowMicros(), null, leaves);
    for await (const chunk of rowsOf(sql, params, CALLS_SELECT_COLUMNS)) yield* withTotals(q, chunk.map(storedCallOf));
  }

  async function* withTotals(q: CallsQuery, calls: StoredCall[]): AsyncGenerator<StoredCall> {
    for (let i = 0; i < calls.length; i += ROWS_PER_CHUNK) {
      const chunk = calls.slice(i, i + ROWS_PER_CHUNK);
      if (q.includeTotalStorageSize) {
        // On trace roots only, as in Weave (null on the other calls).
        const bytes = await traceBytes(
          q.projectId,
          chunk.filter((c) => c.parent_id === null).map((c) => c.trace_id),
        );
        for (const c of chunk) if (c.parent_id === null) c.total_storage_size_bytes = bytes.get(c.trace_id) ?? 0;
      }
      yield* chunk;
    }
  }

  return {
    async writeParts(parts) {
      if (parts.length === 0) return;
      const rows = writes.partRows(parts);
      const bytes = rows.reduce((n, r) => n + r.start_bytes + r.end_bytes, 0);
      if (queued > 0 && queued + bytes > limitBytes) throw new WriteQueueFullError(queued, limitBytes);
      queued += bytes;
      try {
        await writeGrouped(rows);
      } finally {
        queued -= bytes;
      }
    },
    limitWriteQueue(bytes) {
      limitBytes = bytes;
    },
    queuedBytes: () => queued,
    async purgeExpired(now, limit) {
      const rows = await selectRows<{ project_id: string; id: string }>(
        client,
        `SELECT DISTINCT project_id, id FROM ${db}.calls WHERE has_start = 1 AND expire_at IS NOT NULL AND expire_at <= {now:Int64} LIMIT {limit:UInt64}`,
        { now: Math.floor(now), limit },
      );
      const byProject = new Map<string, string[]>();
      for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r.id]);
      // Feedback first: a failure between the two leaves an expired (invisible) call for the next pass.
      for (const [project, ids] of byProject) {
        const refs = ids.map((id) => `weave:///${project}/call/${id}`);
        await client.command({
          query: deleteStatement(
            database,
            'feedback',
            mode,
            'project_id = {p:String} AND weave_ref IN (SELECT arrayJoin({refs:Array(String)}))',
          ),
          query_params: { p: project, refs },
        });
        await client.command({
          query: deleteStatement(
            database,
            'calls',
            mode,
            'project_id = {p:String} AND id IN (SELECT arrayJoin({ids:Array(String)}))',
          ),
          query_params: { p: project, ids },
        });
      }
      return rows.length;
    },
    async updateDisplayName(projectId, callId, displayName) {
      await writes.write([renameRow(projectId, callId, displayName, writes.nextSeq())]);
    },
    async get(projectId, callId, opts) {
      const rows = await allRows(
        `SELECT ${CALL_COLUMNS.join(', ')}, start_bytes + end_bytes AS storage_size_bytes FROM ${db}.calls
        PREWHERE project_id = {p:String} AND id = {id:String} WHERE has_start = 1 ORDER BY seq DESC LIMIT 1`,
        { p: projectId, id: callId },
        CALLS_SELECT_COLUMNS,
      );
      if (rows.length === 0) return null;
      const call = storedCallOf(rows[0]!);
      if (call.deleted_at !== null || (call.expire_at !== null && call.expire_at <= nowMicros())) return null;
      if (!opts.storageSize) call.storage_size_bytes = null;
      if (opts.totalStorageSize && call.parent_id === null)
        call.total_storage_size_bytes = (await traceBytes(projectId, [call.trace_id])).get(call.trace_id) ?? 0;
      return call;
    },
    query,
    async count(q) {
      const column = q.includeTotalStorageSize ? 'trace_id' : '1';
      if (!q.includeTotalStorageSize) {
        const [row] = await withLeaves(client, database, q, (leaves) => {
          const { sql, params } = buildCallsMatched(database, q, nowMicros(), column, leaves);
          return selectRows<{ n: string }>(client, `SELECT count() AS n FROM (${sql})`, params);
        });
        return { count: Number(row!.n), total_storage_size_bytes: null };
      }
      const traces = await withLeaves(client, database, q, (leaves) => {
        const { sql, params } = buildCallsMatched(database, q, nowMicros(), column, leaves);
        return selectRows<{ m: string }>(client, sql, params);
      });
      const bytes = await traceBytes(
        q.projectId,
        traces.map((t) => t.m),
      );
      return { count: traces.length, total_storage_size_bytes: [...bytes.values()].reduce((a, b) => a + b, 0) };
    },
    async delete(projectId, callIds, at) {
      if (callIds.length === 0) return 0;
      const found = new Set<string>();
      let frontier = [...new Set(callIds)];
      let column = 'id';
      while (frontier.length > 0) {
        const rows = await selectRows<{ id: string }>(
          client,
          `SELECT id FROM ${db}.calls FINAL PREWHERE project_id = {p:String} AND has_start = 1 AND ${column} IN (SELECT arrayJoin({ids:Array(String)})) WHERE deleted_at IS NULL`,
          { p: projectId, ids: frontier },
        );
        frontier = rows.map((r) => r.id).filter((id) => !found.has(id));
        for (const id of frontier) found.add(id);
        column = 'parent_id';
      }
      const seq = writes.nextSeq();
      await writes.write([...found].map((id) => deletionRow(projectId, id, at, seq)));
      return new Set([...callIds, ...found]).size;
    },
    async threadTurns(projectId, filter) {
      const s = newStatement(database, projectId);
      const extra = ['calls.id = calls.turn_id'];
      if (filter.threadIds !== null)
        extra.push(`calls.thread_id IN (SELECT arrayJoin(${s.params.add(filter.threadIds, 'Array(String)')}))`);
      else extra.push("calls.thread_id IS NOT NULL AND calls.thread_id != ''");
      if (filter.startedAfter !== null) extra.push(`calls.started_at > ${s.params.add(filter.startedAfter, 'Int64')}`);
      if (filter.startedBefore !== null)
        extra.push(`calls.started_at < ${s.params.add(filter.startedBefore, 'Int64')}`);
      const rows = await selectRows<{ thread_id: string; turns: [string, string, string | null][] }>(
        client,
        `SELECT calls.thread_id AS thread_id, groupArray((calls.id, calls.started_at, calls.ended_at)) AS turns ${liveCallsFrom(database, s, null, nowMicros(), extra)} GROUP BY calls.thread_id`,
        s.params.values,
      );
      return rows.map(
        (r): ThreadTurns => ({
          thread_id: r.thread_id,
          turns: r.turns.map(([id, st, en]) => [id, Number(st), num(en)] as const),
        }),
      );
    },
    async totalStorageSize(projectId) {
      const [row] = await selectRows<{ bytes: string }>(
        client,
        `SELECT sum(start_bytes + end_bytes) AS bytes FROM ${db}.calls FINAL PREWHERE project_id = {p:String} AND has_start = 1 WHERE ${LIVE}`,
        { p: projectId, now: nowMicros() },
      );
      return Number(row?.bytes ?? 0);
    },
    async projectSummaries() {
      const rows = await selectRows<{ project_id: string; n: string; last: string }>(
        client,
        `SELECT project_id, count() AS n, max(started_at) AS last FROM ${db}.calls FINAL PREWHERE has_start = 1 WHERE ${LIVE} GROUP BY project_id`,
        { now: nowMicros() },
      );
      return rows.map((r) => ({ project_id: r.project_id, call_count: Number(r.n), last_started_at: Number(r.last) }));
    },
    async *traceSkeleton(projectId, traceId) {
      const s = newStatement(database, projectId);
      const extra = [`calls.trace_id = ${s.params.add(traceId, 'String')}`];
      const sql = `SELECT calls.id, calls.parent_id, calls.op_name, calls.display_name, calls.started_at, calls.ended_at, calls.exception, calls.summary
        ${liveCallsFrom(database, s, null, nowMicros(), extra)} ORDER BY calls.started_at, calls.id`;
      for await (const chunk of rowsOf(sql, s.params.values)) {
        yield chunk.map(
          (r) => [r[0], r[1], r[2], r[3], Number(r[4]), num(r[5]), r[6], r[7]] as unknown as TraceSkeletonRow,
        );
      }
    },
    async startedRange(q, from, to) {
      const [row] = await withLeaves(client, database, q, (leaves) => {
        const s = newStatement(database, q.projectId, leaves);
        return selectRows<{ n: string; first: string | null; last: string | null }>(
          client,
          `SELECT count() AS n, if(n = 0, NULL, min(calls.started_at)) AS first, if(n = 0, NULL, max(calls.started_at)) AS last ${liveCallsFrom(database, s, q.where, nowMicros(), startedWithin(s, from, to))}`,
          s.params.values,
        );
      });
      return { count: Number(row!.n), first: num(row!.first), last: num(row!.last) };
    },
    async fieldPaths(q, limit) {
      const rows = await withLeaves(client, database, q, (leaves) => {
        const { sql, params } = buildFieldPaths(database, q, limit, nowMicros(), leaves);
        return selectRows<{ p: string }>(client, sql, params);
      });
      return rows.map((r) => r.p);
    },
    metricRows(q, from, to) {
      return streamWithLeaves(client, database, { ...q, sort: [] }, async function* (leaves) {
        const s = newStatement(database, q.projectId, leaves);
        const sql = `SELECT calls.started_at, calls.ended_at, coalesce(calls.exception, '') != '' AS error, ${USAGE_SQL} AS usage
          ${liveCallsFrom(database, s, q.where, nowMicros(), startedWithin(s, from, to))}`;
        for await (const chunk of rowsOf(sql, s.params.values)) {
          yield chunk.map(
            (r) =>
              [Number(r[0]), num(r[1]), Number(r[2]) as 0 | 1, r[3] === '' ? null : (r[3] as string)] as CallMetricRow,
          );
        }
      });
    },
  };
}

/** started_at within [from, to) (null: unbounded), as start-column conditions. */
function startedWithin(s: ReturnType<typeof newStatement>, from: Micros | null, to: Micros | null): string[] {
  const out: string[] = [];
  if (from !== null) out.push(`calls.started_at >= ${s.params.add(from, 'Int64')}`);
  if (to !== null) out.push(`calls.started_at < ${s.params.add(to, 'Int64')}`);
  return out;
}
