// The ClickHouse SpanStore: the spans table (engine/migrations/004-spans.ts), a
// ReplacingMergeTree on seq read with FINAL (or, for a few traces, their newest versions:
// trace-reads.ts). Writes go through span-writes.ts.
import type { ClickHouseClient } from '@clickhouse/client';
import type { FieldRef } from '../../../query/plan.js';
import { SPAN_COLUMNS, SPAN_COLUMN_TYPES, type SpanRow } from '../../../query/span-columns.js';
import { CUSTOM_ATTR_COLUMNS, isScalarSpanColumn } from '../../../query/span-fields.js';
import type { AgentRollupRow, ModelTokens, SpanStore, SpansQuery } from '../../spans/span-store.js';
import { agentRollupSelect, membersOf, orchestratorMembersSelect, withModels } from '../../spans/agent-rollup-sql.js';
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
import { createClickHouseSpanWrites } from './span-writes.js';
import { createClickHouseSpanSearch } from './span-search.js';
import { createClickHouseSpanStats } from './span-stats.js';
import { createClickHouseSpanDistributions } from './span-distributions.js';
import { createClickHouseSpanHistogram } from './span-histogram.js';
import { createClickHouseSpanPurge } from './span-purge.js';
import { createClickHouseTraceReads } from './trace-reads.js';
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

export function createClickHouseSpanStore(
  client: ClickHouseClient,
  database: string,
  mode: ChDdlMode = SINGLE_SERVER,
): SpanStore {
  const table = `${chIdentifier(database)}.spans`;
  const rollups = `${chIdentifier(database)}.agent_rollups`;
  const rollupsOfTraces = `${chIdentifier(database)}.agent_trace_rollups`;
  const nextSeq = seqClock().next;
  const messages = createClickHouseMessageWrites(client, database, mode, nextSeq);
  const purge = createClickHouseSpanPurge(client, database, mode, messages.purge);
  const writes = createClickHouseSpanWrites(client, database, nextSeq, messages, decoded);

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

    write: writes.write,
    // In the write lane: it replaces rollup rows a write adds to.
    purgeExpired: (now, limit) => writes.inLane(() => purge(now, limit)),

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
