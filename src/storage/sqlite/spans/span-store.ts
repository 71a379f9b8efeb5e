// The SQLite SpanStore: the `spans` table (engine/migrations/011-spans.ts). Reads here, writes
// through the writer (spans/span-writes.ts); values reach SQL only as parameters, identifiers
// only from the column catalogue (query/span-columns.ts).
import type { FieldRef } from '../../../query/plan.js';
import { SPAN_COLUMNS, SPAN_COLUMN_TYPES, type SpanRow } from '../../../query/span-columns.js';
import { CUSTOM_ATTR_COLUMNS, isScalarSpanColumn } from '../../../query/span-fields.js';
import type { AgentRollupRow, ConversationSpan, ModelTokens, SpanStore, SpansQuery } from '../../spans/span-store.js';
import { agentRollupSelect, membersOf, orchestratorMembersSelect, withModels } from '../../spans/agent-rollup-sql.js';
import type { SqliteDb } from '../engine/database.js';
import {
  printSqliteOrderBy,
  sqlIdentifier,
  sqliteJsonField,
  type FieldSql,
  type SqlValueType,
} from '../engine/dialect.js';
import type { ReadThreads } from '../engine/read-threads.js';
import type { SqliteWriter } from '../engine/writer.js';
import { createSqliteConversationPage } from './conversation-page.js';
import { createSqliteSpanGroups, spanWhere } from './span-groups.js';
import { createSqliteSpanSearch } from './span-search.js';
import { createSqliteSpanStats } from './span-stats.js';
import { createSqliteSpanDistributions } from './span-distributions.js';
import { createSqliteSpanHistogram } from './span-histogram.js';

const SQLITE_TYPE: Readonly<Record<string, SqlValueType>> = { string: 'text', int: 'integer', float: 'real' };
const CUSTOM: ReadonlySet<string> = new Set(CUSTOM_ATTR_COLUMNS);
const PAGE = 1000;

function printSpanField(field: FieldRef): FieldSql {
  if (field.kind === 'column' && isScalarSpanColumn(field.name)) {
    const t = (SPAN_COLUMN_TYPES as Record<string, string>)[field.name]!;
    return {
      ...sqlIdentifier(`s.${field.name}`),
      type: SQLITE_TYPE[t]!,
      notNull: ['project_id', 'trace_id', 'span_id', 'span_name', 'span_kind', 'started_at', 'status_code'].includes(
        field.name,
      ),
    };
  }
  if (field.kind === 'json' && CUSTOM.has(field.column)) return sqliteJsonField(`s.${field.column}`, field.path);
  throw new Error(`spans cannot print field ${JSON.stringify(field)}`);
}

/** Spans a search indexes a job while a backlog is left: other writes wait for one such job at most. */
const BARRIER_CHUNK = 2000;

/** Point reads (a trace's or a conversation's spans by index) run here, on `db`; reads that may
 * scan (queries, groups, stats, search, custom attribute keys) on the reader threads. */
export function createSqliteSpanStore(db: SqliteDb, reads: ReadThreads, writer: SqliteWriter): SpanStore {
  const groups = createSqliteSpanGroups(reads, printSpanField);
  const conversationPage = createSqliteConversationPage(reads, groups, printSpanField);
  const search = createSqliteSpanSearch(reads);
  const stats = createSqliteSpanStats(reads, printSpanField);
  const firstInput = db.prepare(
    "SELECT input_messages AS m FROM spans WHERE project_id = ? AND conversation_id = ? AND input_messages <> '[]' ORDER BY started_at, span_id LIMIT 1",
  );
  const lastOutput = db.prepare(
    "SELECT output_messages AS m FROM spans WHERE project_id = ? AND conversation_id = ? AND output_messages <> '[]' ORDER BY coalesce(ended_at, started_at) DESC, span_id DESC LIMIT 1",
  );
  /** Indexes the messages still waiting (span-message-backlog.ts): a search sees every acknowledged write. */
  async function indexed(): Promise<void> {
    while ((await writer.run('spans.indexMessages', [BARRIER_CHUNK])) > 0);
  }
  return {
    groups: async (q) => (await conversationPage(q)) ?? groups(q),
    search: async (q) => {
      await indexed();
      return search(q);
    },
    stats,
    distributions: createSqliteSpanDistributions(reads, printSpanField),
    histogram: createSqliteSpanHistogram(reads, printSpanField),

    async customAttrKeys(q) {
      const { sql: where, params } = spanWhere(q, printSpanField);
      const parts = CUSTOM_ATTR_COLUMNS.map(
        (c) =>
          `SELECT '${c}' AS source, je.key AS key, count(*) AS span_count FROM spans AS s, json_each(s.${c}) AS je WHERE ${where} GROUP BY je.key`,
      );
      return reads.all<{ source: string; key: string; span_count: number }>(
        `${parts.join(' UNION ALL ')} ORDER BY span_count DESC, source, key LIMIT ? OFFSET ?`,
        [...CUSTOM_ATTR_COLUMNS.flatMap(() => params), q.limit, q.offset],
      );
    },

    async conversationSpans(projectId, ids, after, before, perConversation) {
      if (ids.length === 0) return [];
      const bounds = `${after === null ? '' : ' AND started_at >= @after'}${before === null ? '' : ' AND started_at < @before'}`;
      return reads.all<ConversationSpan>(
        `SELECT conversation_id, operation_name, trace_id, span_id, status_code, started_at, ended_at FROM (
           SELECT *, row_number() OVER (PARTITION BY conversation_id ORDER BY started_at, span_id) AS n FROM spans
           WHERE project_id = @project AND conversation_id IN (SELECT value FROM json_each(@ids))${bounds}
         ) WHERE n <= @per ORDER BY conversation_id, started_at, span_id`,
        [
          {
            project: projectId,
            ids: JSON.stringify(ids),
            per: perConversation,
            ...(after === null ? {} : { after }),
            ...(before === null ? {} : { before }),
          },
        ],
      );
    },

    async conversationEnds(projectId, ids) {
      const out = new Map<string, { first: string | null; last: string | null }>();
      for (const id of ids) {
        const first = firstInput.get(projectId, id) as { m: string } | undefined;
        const last = lastOutput.get(projectId, id) as { m: string } | undefined;
        out.set(id, { first: first?.m ?? null, last: last?.m ?? null });
      }
      return out;
    },

    write: async (rows) => {
      if (rows.length > 0) await writer.run('spans.write', [rows]);
    },
    purgeExpired: (now, limit) => writer.run('spans.purgeExpired', [Math.floor(now), limit]),

    async query(q: SpansQuery) {
      const { sql: where, params } = spanWhere(q, printSpanField);
      const wanted = new Set(q.columns);
      const select = SPAN_COLUMNS.map((c) => (wanted.has(c) ? `s."${c}"` : `NULL AS "${c}"`)).join(', ');
      const order = printSqliteOrderBy(q.sort, printSpanField);
      const orderSql = order.sql === '' ? 'ORDER BY s.started_at DESC, s.span_id' : `${order.sql}, s.span_id`;
      const [rows, [count]] = await Promise.all([
        reads.all<SpanRow>(`SELECT ${select} FROM spans AS s WHERE ${where} ${orderSql} LIMIT ? OFFSET ?`, [
          ...params,
          ...order.params,
          q.limit,
          q.offset,
        ]),
        reads.all<{ n: number }>(`SELECT COUNT(*) AS n FROM spans AS s WHERE ${where}`, params),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async agents(q) {
      const sql = agentRollupSelect(q, 'agent_rollups', (name) => `@${name}`);
      const named = (text: string) =>
        Object.fromEntries(Object.entries(sql.values).filter(([k]) => text.includes(`@${k}`)));
      const rows = db.prepare(sql.page).all(named(sql.page)) as Omit<AgentRollupRow, 'models'>[];
      const { n } = db.prepare(sql.count).get(named(sql.count)) as { n: number };
      const models = db.prepare(sql.models).all(named(sql.models)) as (ModelTokens & {
        agent_name: string;
        agent_version: string;
      })[];
      return { rows: withModels(rows, models), total: n };
    },

    async orchestratorMembers(projectId, orchestrators) {
      if (orchestrators.length === 0) return new Map();
      const sql = orchestratorMembersSelect('agent_trace_rollups', (name) =>
        name === 'names' ? 'SELECT value FROM json_each(@names)' : `@${name}`,
      );
      return membersOf(db.prepare(sql).all({ project: projectId, names: JSON.stringify(orchestrators) }) as never);
    },

    async traceSpans(projectId, traceIds) {
      if (traceIds.length === 0) return [];
      const cols = SPAN_COLUMNS.map((c) => (c === 'raw_span_dump' ? 'NULL AS raw_span_dump' : `"${c}"`)).join(', ');
      return db
        .prepare(`SELECT ${cols} FROM spans WHERE project_id = ? AND trace_id IN (SELECT value FROM json_each(?))`)
        .all(projectId, JSON.stringify(traceIds)) as SpanRow[];
    },

    async conversationTraces(projectId, conversationId) {
      // The turn starts at its earliest span, which need not carry the conversation id.
      return db
        .prepare(
          `SELECT t.trace_id AS trace_id, (SELECT min(s.started_at) FROM spans AS s WHERE s.project_id = ? AND s.trace_id = t.trace_id) AS started_at
           FROM (SELECT DISTINCT trace_id FROM spans WHERE project_id = ? AND conversation_id = ?) AS t ORDER BY started_at, trace_id`,
        )
        .all(projectId, projectId, conversationId) as { trace_id: string; started_at: number }[];
    },

    async *all(projectId: string) {
      const page = db.prepare(
        `SELECT rowid AS _r, ${SPAN_COLUMNS.map((c) => `"${c}"`).join(', ')} FROM spans WHERE project_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
      );
      let after = 0;
      for (;;) {
        const rows = page.all(projectId, after, PAGE) as (SpanRow & { _r: number })[];
        if (rows.length === 0) return;
        after = rows[rows.length - 1]!._r;
        yield rows.map(({ _r, ...row }) => row as SpanRow);
      }
    },
  };
}
