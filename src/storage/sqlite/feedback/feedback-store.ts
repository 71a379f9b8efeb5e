// The SQLite FeedbackStore: one `feedback` table (sqlite/feedback/feedback-schema.ts). Reads here,
// analytics on the read threads (feedback-stats.ts, feedback-aggregate.ts), writes through the
// writer (sqlite/feedback/feedback-writes.ts); values reach SQL only as parameters, identifiers
// only from the column allow-list.
import type { FeedbackQuery, FeedbackRow, FeedbackStore } from '../../feedback/feedback-store.js';
import type { FieldRef } from '../../../query/plan.js';
import { FEEDBACK_COLUMNS, FEEDBACK_JSON_COLUMNS, isFeedbackColumn } from '../../../query/feedback-fields.js';
import {
  printSqliteExpr,
  printSqliteOrderBy,
  sqliteJsonField,
  sqlIdentifier,
  type FieldSql,
} from '../engine/dialect.js';
import type { SqliteDb } from '../engine/database.js';
import { FEEDBACK_COLUMN_LIST as COLUMN_LIST } from './feedback-writes.js';
import type { SqliteWriter } from '../engine/writer.js';
import { selectedValues } from '../../feedback/feedback-selection.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { createSqliteFeedbackStats } from './feedback-stats.js';
import { createSqliteFeedbackAggregate } from './feedback-aggregate.js';

type DbRow = Record<string, unknown>;

/** SQLite caps bound parameters per statement (32766); chunk long id lists well below it. */
const MAX_PARAMS_PER_IN = 500;

/** A stored column value as FeedbackRow holds it. */
function decodeColumn(column: string, value: unknown): unknown {
  if (FEEDBACK_JSON_COLUMNS.has(column) && typeof value === 'string') return JSON.parse(value);
  return value;
}

function toRow(r: DbRow): FeedbackRow {
  const out: Record<string, unknown> = {};
  for (const c of FEEDBACK_COLUMNS) out[c] = decodeColumn(c, r[c]);
  return out as unknown as FeedbackRow;
}

/** Prints a resolved feedback field. The catalog only yields columns and payload paths. */
function printField(field: FieldRef): FieldSql {
  if (field.kind === 'column' && isFeedbackColumn(field.name)) {
    return { ...sqlIdentifier(field.name), type: field.name === 'created_at' ? 'integer' : 'text' };
  }
  if (field.kind === 'json' && field.column === 'payload') return sqliteJsonField('payload', field.path);
  throw new Error(`feedback cannot print field ${JSON.stringify(field)}`);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function createSqliteFeedbackStore(db: SqliteDb, writer: SqliteWriter, reads: ReadThreads): FeedbackStore {
  return {
    ...createSqliteFeedbackStats(reads),
    aggregate: createSqliteFeedbackAggregate(reads),
    insert: (rows) => writer.run('feedback.insert', [rows]),
    replace: (projectId, feedbackId, row) => writer.run('feedback.replace', [projectId, feedbackId, row]),
    purge: async (projectId, ids) => (ids.length === 0 ? 0 : writer.run('feedback.purge', [projectId, ids])),

    async query(q: FeedbackQuery) {
      const params: unknown[] = [];
      const select = q.select.map((s, i) => {
        const f = printField(s.field);
        params.push(...f.params);
        return `${f.sql} AS s${i}`;
      });
      let sql = `SELECT ${select.join(', ')} FROM feedback WHERE project_id = ?`;
      params.push(q.projectId);
      if (q.where) {
        const w = printSqliteExpr(q.where, printField);
        sql += ` AND (${w.sql})`;
        params.push(...w.params);
      }
      // No requested order: insertion order (rowid), as Weave's ports return rows.
      if (q.sort.length > 0) {
        const o = printSqliteOrderBy(q.sort, printField);
        sql += ` ${o.sql}, rowid`;
        params.push(...o.params);
      } else {
        sql += ' ORDER BY rowid';
      }
      if (q.limit !== null || q.offset !== null) {
        sql += ' LIMIT ? OFFSET ?';
        params.push(q.limit ?? -1, q.offset ?? 0);
      }
      const rows = db.prepare(sql).all(...params) as DbRow[];
      return rows.map((r) => selectedValues(q.select, r, decodeColumn));
    },

    async count(projectId, where) {
      let sql = 'SELECT COUNT(*) AS n FROM feedback WHERE project_id = ?';
      const params: unknown[] = [projectId];
      if (where) {
        const w = printSqliteExpr(where, printField);
        sql += ` AND (${w.sql})`;
        params.push(...w.params);
      }
      return (db.prepare(sql).get(...params) as { n: number }).n;
    },

    async findByWeaveRefs(projectId, weaveRefs) {
      const refs = [...new Set(weaveRefs)];
      if (refs.length === 0) return [];
      const found: { rowid: number; row: FeedbackRow }[] = [];
      for (const part of chunks(refs, MAX_PARAMS_PER_IN)) {
        const sql =
          `SELECT rowid AS _rowid, ${COLUMN_LIST} FROM feedback ` +
          `WHERE project_id = ? AND weave_ref IN (${part.map(() => '?').join(', ')})`;
        for (const r of db.prepare(sql).all(projectId, ...part) as DbRow[])
          found.push({ rowid: Number(r._rowid), row: toRow(r) });
      }
      return found.sort((a, b) => a.rowid - b.rowid).map((f) => f.row);
    },
  };
}
