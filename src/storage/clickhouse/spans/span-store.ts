// The ClickHouse SpanStore: the spans table (engine/migrations/004-spans.ts), a
// ReplacingMergeTree on seq read with FINAL. A write inserts the spans, then settles the owner
// of every span of each trace it touched (storage/spans/span-owners.ts): a span whose owner changed
// is written again, whole, with a higher seq. Without transactions a failure between the two
// leaves an owner to settle on the trace's next write; no span is lost.
import type { ClickHouseClient } from '@clickhouse/client';
import type { FieldRef } from '../../../query/plan.js';
import { SPAN_COLUMNS, SPAN_COLUMN_TYPES, type SpanRow } from '../../../query/span-columns.js';
import { CUSTOM_ATTR_COLUMNS, isScalarSpanColumn } from '../../../query/span-fields.js';
import type { AgentRollupRow, ModelTokens, SpanStore, SpansQuery } from '../../spans/span-store.js';
import { settleTrace, unsettled, type SettleSpan, type TraceSettlement } from '../../spans/span-settle.js';
import { agentRollupSelect, membersOf, orchestratorMembersSelect, withModels } from '../../spans/agent-rollup-sql.js';
import {
  ROLLUP_SUMS,
  contributionKey,
  traceContributions,
  type Contribution,
  type RollupSpan,
} from '../../spans/span-rollups.js';
import { selectRows } from '../engine/client.js';
import {
  ChParams,
  chIdentifier,
  chJsonField,
  printChExpr,
  printChOrderBy,
  type ChField,
  type ChType,
} from '../engine/dialect.js';
import { seqClock } from '../engine/seq-clock.js';
import { createClickHouseConversationPage } from './conversation-page.js';
import { createClickHouseSpanGroups } from './span-groups.js';
import { createClickHouseMessageWrites } from './span-message-writes.js';
import { createClickHouseSpanSearch } from './span-search.js';
import { createClickHouseSpanStats } from './span-stats.js';
import { createClickHouseSpanDistributions } from './span-distributions.js';
import { createClickHouseSpanHistogram } from './span-histogram.js';
import { createClickHouseSpanPurge } from './span-purge.js';
import { createClickHouseTraceReads, latestOfTraces, TRACES } from './trace-reads.js';
import { SINGLE_SERVER, type ChDdlMode } from '../engine/ddl.js';

const CH_TYPE: Readonly<Record<string, ChType>> = { string: 'String', int: 'Int64', float: 'Float64' };
const CUSTOM: ReadonlySet<string> = new Set(CUSTOM_ATTR_COLUMNS);
const NOT_NULL: ReadonlySet<string> = new Set([
  'project_id',
  'trace_id',
  'span_id',
  'span_name',
  'span_kind',
  'started_at',
  'status_code',
]);
const INT_COLUMNS: ReadonlySet<string> = new Set(
  SPAN_COLUMNS.filter((c) => (SPAN_COLUMN_TYPES as Record<string, string>)[c] === 'int'),
);
const PAGE = 1000;

/** The rows grouped by a key, in first-seen order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): T[][] {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list === undefined) out.set(k, [r]);
    else list.push(r);
  }
  return [...out.values()];
}

/** A rollup row: its keys, each sum from `sum`, and the times. */
function rollupRow(projectId: string, c: Contribution, sum: (name: (typeof ROLLUP_SUMS)[number]) => number) {
  return {
    project_id: projectId,
    agent_name: c.agent_name,
    agent_version: c.agent_version,
    model: c.model,
    ...Object.fromEntries(ROLLUP_SUMS.map((k) => [k, sum(k)])),
    first_seen: Number(c.first_seen),
    last_seen: Number(c.last_seen),
  };
}

function printSpanField(field: FieldRef, params: ChParams): ChField {
  if (field.kind === 'column' && isScalarSpanColumn(field.name)) {
    const t = (SPAN_COLUMN_TYPES as Record<string, string>)[field.name]!;
    return { sql: `s.${chIdentifier(field.name)}`, type: CH_TYPE[t]!, notNull: NOT_NULL.has(field.name) };
  }
  if (field.kind === 'json' && CUSTOM.has(field.column))
    return chJsonField(`s.${field.column}`, field.path, params, true);
  throw new Error(`spans cannot print field ${JSON.stringify(field)}`);
}

/** A row as read (Int64 arrives as text) back in SpanRow's types. */
function decoded(r: Record<string, unknown>): SpanRow {
  const out: Record<string, string | number | null> = {};
  for (const c of SPAN_COLUMNS) {
    const v = r[c];
    out[c] = v === null || v === undefined ? null : INT_COLUMNS.has(c) ? Number(v) : (v as string | number);
  }
  return out as SpanRow;
}

/** Spans a batch of waiting writes holds at most (write, below). */
const BATCH_ROWS = 5000;

export function createClickHouseSpanStore(
  client: ClickHouseClient,
  database: string,
  mode: ChDdlMode = SINGLE_SERVER,
): SpanStore {
  const table = `${chIdentifier(database)}.spans`;
  const rollups = `${chIdentifier(database)}.agent_rollups`;
  const rollupsOfTraces = `${chIdentifier(database)}.agent_trace_rollups`;
  // One write at a time per store: a trace's rollups are read, then replaced (without this, two
  // writes of one trace could both take away its old figures). Replicas of Weft over one
  // ClickHouse do not share this lane (docs/agents.md).
  let lane: Promise<unknown> = Promise.resolve();
  /** The batch waiting for the lane, which later writes join (up to BATCH_ROWS spans). */
  let waiting: { rows: SpanRow[]; done: Promise<void> } | null = null;
  const nextSeq = seqClock().next;
  const messages = createClickHouseMessageWrites(client, database, mode, nextSeq);
  const purge = createClickHouseSpanPurge(client, database, mode, messages.purge);
  const insert = (rows: readonly SpanRow[]) =>
    client.insert({ table, values: rows.map((r) => ({ ...r, seq: nextSeq() })), format: 'JSONEachRow' });

  async function settleOwners(projectId: string, traceIds: readonly string[]) {
    const rows = (
      await selectRows<Record<string, unknown>>(client, latestOfTraces(table, SPAN_COLUMNS.join(', '), TRACES), {
        p: projectId,
        t: traceIds,
      })
    ).map(decoded);
    const byTrace = new Map<string, SpanRow[]>();
    for (const r of rows) byTrace.set(String(r.trace_id), [...(byTrace.get(String(r.trace_id)) ?? []), r]);
    const changed: SpanRow[] = [];
    const settlements = new Map<string, TraceSettlement>();
    for (const [traceId, spans] of byTrace) {
      // decoded() made every count and time a number: the rows are SettleSpans.
      const settlement = settleTrace(spans as unknown as SettleSpan[]);
      settlements.set(traceId, settlement);
      spans.forEach((s, i) => {
        const to = settlement.spans.get(String(s.span_id))!;
        if (!unsettled(s, to)) return;
        spans[i] = { ...s, ...to };
        changed.push(spans[i]!);
      });
    }
    if (changed.length > 0) await insert(changed);
    await replaceRollups(projectId, traceIds, byTrace, settlements);
    return byTrace;
  }

  /** Replaces what these traces add to the agent rollups: the deltas, then the traces' new contributions. */
  async function replaceRollups(
    projectId: string,
    traceIds: readonly string[],
    byTrace: Map<string, SpanRow[]>,
    settlements: Map<string, TraceSettlement>,
  ) {
    const stored = await selectRows<Record<string, string | number>>(
      client,
      `SELECT * EXCEPT seq FROM ${rollupsOfTraces} WHERE project_id = {p:String} AND trace_id IN (SELECT arrayJoin({t:Array(String)}))
       ORDER BY seq DESC LIMIT 1 BY trace_id, agent_name, agent_version, model`,
      { p: projectId, t: traceIds },
    );
    const before = new Map<string, Record<string, string | number>>();
    for (const r of stored) before.set(`${r.trace_id}\u0000${contributionKey(r as unknown as Contribution)}`, r);
    const deltas: Record<string, unknown>[] = [];
    const traceRows: Record<string, unknown>[] = [];
    for (const [traceId, spans] of byTrace) {
      // decoded() made every count and time a number: the rows are RollupSpans.
      const settled = spans as unknown as RollupSpan[];
      for (const c of traceContributions(settled, settlements.get(traceId)!.orchestrators)) {
        const k = `${traceId}\u0000${contributionKey(c)}`;
        const old = before.get(k);
        before.delete(k);
        deltas.push(rollupRow(projectId, c, (name) => c.sums[name] - Number(old?.[name] ?? 0)));
        traceRows.push({
          ...rollupRow(projectId, c, (name) => c.sums[name]),
          trace_id: traceId,
          conversation_id: c.conversation_id,
          seq: nextSeq(),
        });
      }
    }
    // What a trace no longer adds (an owner that changed) is taken away, and its row zeroed.
    for (const old of before.values()) {
      const c = old as unknown as Contribution;
      deltas.push(rollupRow(projectId, c, (name) => -Number(old[name])));
      traceRows.push({
        ...rollupRow(projectId, c, () => 0),
        trace_id: old.trace_id,
        conversation_id: old.conversation_id,
        seq: nextSeq(),
      });
    }
    if (deltas.length > 0) await client.insert({ table: rollups, values: deltas, format: 'JSONEachRow' });
    if (traceRows.length > 0) await client.insert({ table: rollupsOfTraces, values: traceRows, format: 'JSONEachRow' });
  }

  async function writeNow(rows: readonly SpanRow[]) {
    // Settled as far as this batch knows its traces, so that most spans are written once.
    const settled = new Map<string, SpanRow>();
    for (const trace of groupBy(rows, (r) => `${r.project_id}\u0000${r.trace_id}`)) {
      const settlement = settleTrace(trace as unknown as SettleSpan[]);
      for (const r of trace)
        settled.set(`${r.project_id}\u0000${r.trace_id}\u0000${r.span_id}`, {
          ...r,
          ...settlement.spans.get(String(r.span_id))!,
        });
    }
    await insert(rows.map((r) => settled.get(`${r.project_id}\u0000${r.trace_id}\u0000${r.span_id}`)!));
    await messages.bodies(rows);
    const traces = new Map<string, Set<string>>();
    for (const r of rows) {
      const p = String(r.project_id);
      if (!traces.has(p)) traces.set(p, new Set());
      traces.get(p)!.add(String(r.trace_id));
    }
    // Messages are keyed by each span's conversation as settled.
    for (const [projectId, ids] of traces) await messages.write(projectId, await settleOwners(projectId, [...ids]));
  }

  function whereOf(q: SpansQuery, params: ChParams): string {
    const parts = [`s.project_id = ${params.add(q.projectId, 'String')}`];
    if (q.startedAfter !== null) parts.push(`s.started_at >= ${params.add(q.startedAfter, 'Int64')}`);
    if (q.startedBefore !== null) parts.push(`s.started_at < ${params.add(q.startedBefore, 'Int64')}`);
    if (q.where !== null) parts.push(printChExpr(q.where, printSpanField, params));
    return parts.join(' AND ');
  }

  // The grouped reads' signal filters read the feedback table of the same database.
  const feedback = `${chIdentifier(database)}.feedback`;
  const groups = createClickHouseSpanGroups(client, table, feedback, printSpanField);
  const conversationPage = createClickHouseConversationPage(client, table, groups, printSpanField);

  const stats = createClickHouseSpanStats(client, table, feedback, printSpanField);

  return {
    groups: async (q) => (await conversationPage(q)) ?? groups(q),
    stats,
    distributions: createClickHouseSpanDistributions(client, table, feedback, printSpanField),
    histogram: createClickHouseSpanHistogram(client, table, feedback, printSpanField),
    search: createClickHouseSpanSearch(client, database),
    ...createClickHouseTraceReads(client, table, decoded),

    async customAttrKeys(q) {
      const params = new ChParams();
      const where = whereOf({ ...q, sort: [], columns: [] }, params);
      const parts = CUSTOM_ATTR_COLUMNS.map(
        (c) =>
          `SELECT '${c}' AS source, arrayJoin(JSONExtractKeys(s.${c})) AS key, count() AS span_count FROM ${table} AS s FINAL WHERE ${where} GROUP BY key`,
      );
      const rows = await selectRows<{ source: string; key: string; span_count: string }>(
        client,
        `SELECT * FROM (${parts.join(' UNION ALL ')}) ORDER BY span_count DESC, source, key LIMIT ${params.add(q.limit, 'Int64')} OFFSET ${params.add(q.offset, 'Int64')}`,
        params.values,
      );
      return rows.map((r) => ({ source: r.source, key: r.key, span_count: Number(r.span_count) }));
    },

    write(rows) {
      if (rows.length === 0) return Promise.resolve();
      // Writes that arrive while the lane is busy wait as one batch, written together (as
      // SQLite's writer groups its jobs): each of a write's statements then serves several
      // requests. A batch that fails fails every write in it.
      if (waiting !== null && waiting.rows.length < BATCH_ROWS) {
        waiting.rows.push(...rows);
        return waiting.done;
      }
      const batch = { rows: [...rows], done: Promise.resolve() };
      waiting = batch;
      batch.done = lane.then(() => {
        if (waiting === batch) waiting = null;
        return writeNow(batch.rows);
      });
      lane = batch.done.catch(() => undefined);
      return batch.done;
    },

    // In the write lane: it replaces rollup rows a write adds to.
    purgeExpired(now, limit) {
      const run = lane.then(() => purge(now, limit));
      lane = run.catch(() => undefined);
      return run;
    },

    async agents(q) {
      const types: Record<string, string> = { project: 'String', agent: 'String', limit: 'Int64', offset: 'Int64' };
      const sql = agentRollupSelect(q, rollups, (name) => `{${name}:${types[name]}}`);
      const num = (r: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [
            k,
            k === 'agent_name' || k === 'agent_version' || k === 'model' ? v : Number(v),
          ]),
        );
      const rows = (await selectRows<Record<string, unknown>>(client, sql.page, sql.values)).map(
        num,
      ) as unknown as Omit<AgentRollupRow, 'models'>[];
      const [{ n }] = (await selectRows<{ n: string }>(client, sql.count, sql.values)) as [{ n: string }];
      const models = (await selectRows<Record<string, unknown>>(client, sql.models, sql.values)).map(
        num,
      ) as unknown as (ModelTokens & {
        agent_name: string;
        agent_version: string;
      })[];
      return { rows: withModels(rows, models), total: Number(n) };
    },

    async orchestratorMembers(projectId, orchestrators) {
      if (orchestrators.length === 0) return new Map();
      // The newest version of each per-trace row (a trace written again zeroes what it no longer adds).
      const rows = `(SELECT * FROM ${rollupsOfTraces} FINAL WHERE project_id = {project:String})`;
      const sql = orchestratorMembersSelect(rows, (name) =>
        name === 'names' ? 'SELECT arrayJoin({names:Array(String)})' : '{project:String}',
      );
      return membersOf(await selectRows(client, sql, { project: projectId, names: orchestrators }));
    },

    async query(q) {
      const params = new ChParams();
      const where = whereOf(q, params);
      const wanted = new Set(q.columns);
      const select = SPAN_COLUMNS.map((c) => (wanted.has(c) ? `s.${c} AS ${c}` : `NULL AS ${c}`)).join(', ');
      const order = printChOrderBy(q.sort, printSpanField, params);
      const orderSql = order === '' ? 'ORDER BY s.started_at DESC, s.span_id' : `${order}, s.span_id`;
      const rows = await selectRows<Record<string, unknown>>(
        client,
        `SELECT ${select} FROM ${table} AS s FINAL WHERE ${where} ${orderSql} LIMIT ${params.add(q.limit, 'Int64')} OFFSET ${params.add(q.offset, 'Int64')}`,
        params.values,
      );
      const countParams = new ChParams();
      const [{ n }] = (await selectRows<{ n: string }>(
        client,
        `SELECT count() AS n FROM ${table} AS s FINAL WHERE ${whereOf(q, countParams)}`,
        countParams.values,
      )) as [{ n: string }];
      return { rows: rows.map(decoded), total: Number(n) };
    },

    async *all(projectId) {
      for (let offset = 0; ; offset += PAGE) {
        const rows = await selectRows<Record<string, unknown>>(
          client,
          `SELECT ${SPAN_COLUMNS.join(', ')} FROM ${table} AS s FINAL WHERE project_id = {p:String} ORDER BY trace_id, span_id LIMIT {l:Int64} OFFSET {o:Int64}`,
          { p: projectId, l: PAGE, o: offset },
        );
        if (rows.length === 0) return;
        yield rows.map(decoded);
      }
    },
  };
}
