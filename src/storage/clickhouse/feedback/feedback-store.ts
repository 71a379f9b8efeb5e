// The ClickHouse FeedbackStore: one feedback table (clickhouse/engine/migrations.ts), append-only.
// Without transactions, the documented order keeps every acknowledged row: a replacement is
// written before the row it replaces is deleted, and a re-sent row (same project and id) is
// written before its older copies are deleted, so a failure leaves a duplicate, never a loss.
// The analytics reads are in feedback-stats.ts and feedback-aggregate.ts.
import type { ClickHouseClient } from '@clickhouse/client';
import { FEEDBACK_COLUMNS, FEEDBACK_JSON_COLUMNS, isFeedbackColumn } from '../../../query/feedback-fields.js';
import type { Expr, FieldRef } from '../../../query/plan.js';
import type { FeedbackRow, FeedbackStore } from '../../feedback/feedback-store.js';
import { SINGLE_SERVER, deleteStatement, type ChDdlMode } from '../engine/ddl.js';
import { selectRows } from '../engine/client.js';
import { selectedValues } from '../../feedback/feedback-selection.js';
import { ChParams, chIdentifier, chJsonField, printChExpr, printChOrderBy, type ChField } from '../engine/dialect.js';
import { seqClock } from '../engine/seq-clock.js';
import { createClickHouseFeedbackStats } from './feedback-stats.js';
import { createClickHouseFeedbackAggregate } from './feedback-aggregate.js';

type DbRow = Record<string, unknown>;

function decodeColumn(column: string, value: unknown): unknown {
  if (column === 'created_at' && value !== null) return Number(value);
  if (FEEDBACK_JSON_COLUMNS.has(column) && typeof value === 'string') return JSON.parse(value);
  return value;
}

function printField(field: FieldRef, params: ChParams): ChField {
  if (field.kind === 'column' && isFeedbackColumn(field.name))
    return { sql: chIdentifier(field.name), type: field.name === 'created_at' ? 'Int64' : 'String' };
  if (field.kind === 'json' && field.column === 'payload') return chJsonField('payload', field.path, params);
  throw new Error(`feedback cannot print field ${JSON.stringify(field)}`);
}

const toStored = (row: FeedbackRow, seq: number): DbRow => {
  const out: DbRow = { seq };
  for (const c of FEEDBACK_COLUMNS) out[c] = FEEDBACK_JSON_COLUMNS.has(c) ? JSON.stringify(row[c]) : row[c];
  return out;
};

export function createClickHouseFeedbackStore(
  client: ClickHouseClient,
  database: string,
  mode: ChDdlMode = SINGLE_SERVER,
): FeedbackStore {
  const table = `${chIdentifier(database)}.feedback`;
  const columns = FEEDBACK_COLUMNS.join(', ');
  const nextSeq = seqClock().next;

  /** Deletes the rows of these ids written before `seq` (older copies of re-sent rows). */
  async function dropOlder(projectId: string, ids: readonly string[], seq: number) {
    const params = { project: projectId, ids, seq };
    const where =
      'project_id = {project:String} AND id IN (SELECT arrayJoin({ids:Array(String)})) AND seq < {seq:UInt64}';
    const [{ n }] = (await selectRows<{ n: string }>(
      client,
      `SELECT count() AS n FROM ${table} WHERE ${where}`,
      params,
    )) as [{ n: string }];
    if (Number(n) > 0)
      await client.command({ query: deleteStatement(database, 'feedback', mode, where), query_params: params });
  }

  function where(projectId: string, expr: Expr | null, params: ChParams): string {
    const own = `project_id = ${params.add(projectId, 'String')}`;
    return expr ? `${own} AND (${printChExpr(expr, printField, params)})` : own;
  }

  return {
    ...createClickHouseFeedbackStats(client, table),
    aggregate: createClickHouseFeedbackAggregate(client, table),

    async insert(rows) {
      if (rows.length === 0) return;
      const first = nextSeq();
      await client.insert({
        table,
        values: rows.map((r, i) => toStored(r, i === 0 ? first : nextSeq())),
        format: 'JSONEachRow',
      });
      const byProject = new Map<string, string[]>();
      for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r.id]);
      for (const [project, ids] of byProject) await dropOlder(project, ids, first);
    },

    async replace(projectId, feedbackId, row) {
      const seq = nextSeq();
      await client.insert({ table, values: [toStored(row, seq)], format: 'JSONEachRow' });
      await dropOlder(projectId, feedbackId === row.id ? [row.id] : [row.id, feedbackId], seq);
      if (feedbackId !== row.id) {
        await client.command({
          query: deleteStatement(database, 'feedback', mode, 'project_id = {project:String} AND id = {id:String}'),
          query_params: { project: projectId, id: feedbackId },
        });
      }
    },

    async purge(projectId, ids) {
      if (ids.length === 0) return 0;
      const params = { project: projectId, ids };
      const w = 'project_id = {project:String} AND id IN (SELECT arrayJoin({ids:Array(String)}))';
      const [{ n }] = (await selectRows<{ n: string }>(
        client,
        `SELECT uniqExact(id) AS n FROM ${table} WHERE ${w}`,
        params,
      )) as [{ n: string }];
      if (Number(n) > 0)
        await client.command({ query: deleteStatement(database, 'feedback', mode, w), query_params: params });
      return Number(n);
    },

    async query(q) {
      const params = new ChParams();
      const select = q.select.map((s, i) => `${printField(s.field, params).sql} AS s${i}`);
      let sql = `SELECT ${select.join(', ')} FROM ${table} WHERE ${where(q.projectId, q.where, params)}`;
      const order = printChOrderBy(q.sort, printField, params);
      sql += order ? ` ${order}, seq` : ' ORDER BY seq';
      if (q.limit !== null) sql += ` LIMIT ${params.add(q.limit, 'Int64')}`;
      if (q.offset !== null && q.offset > 0) sql += ` OFFSET ${params.add(q.offset, 'Int64')}`;
      const rows = await selectRows<DbRow>(client, sql, params.values);
      return rows.map((r) => selectedValues(q.select, r, decodeColumn));
    },

    async count(projectId, expr) {
      const params = new ChParams();
      const [{ n }] = (await selectRows<{ n: string }>(
        client,
        `SELECT count() AS n FROM ${table} WHERE ${where(projectId, expr, params)}`,
        params.values,
      )) as [{ n: string }];
      return Number(n);
    },

    async findByWeaveRefs(projectId, weaveRefs) {
      const refs = [...new Set(weaveRefs)];
      if (refs.length === 0) return [];
      const rows = await selectRows<DbRow>(
        client,
        `SELECT ${columns} FROM ${table} WHERE project_id = {project:String} AND weave_ref IN (SELECT arrayJoin({refs:Array(String)})) ORDER BY seq`,
        { project: projectId, refs },
      );
      return rows.map((r) => {
        const out: Record<string, unknown> = {};
        for (const c of FEEDBACK_COLUMNS) out[c] = decodeColumn(c, r[c]);
        return out as unknown as FeedbackRow;
      });
    },
  };
}
