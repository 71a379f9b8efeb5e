// The SQLite CostStore: one `llm_token_prices` table (sqlite/costs/cost-schema.ts). Reads here,
// writes through the writer (sqlite/costs/cost-writes.ts); values reach SQL only as parameters
// (lists as one JSON-array parameter read with json_each), identifiers only from the cost
// column allow-list.
import type { FieldRef } from '../../../query/plan.js';
import { COST_COLUMN_TYPES, isCostColumn } from '../../../query/cost-fields.js';
import type { CostStore, PriceRow } from '../../costs/cost-store.js';
import {
  printSqliteExpr,
  printSqliteOrderBy,
  sqlIdentifier,
  type FieldSql,
  type SqlValueType,
} from '../engine/dialect.js';
import type { SqliteDb } from '../engine/database.js';
import { COST_COLUMN_LIST as COLUMN_LIST } from './cost-writes.js';
import type { SqliteWriter } from '../engine/writer.js';

const IN_LIST = 'IN (SELECT value FROM json_each(?))';

/** How SQLite stores each kind of column: times as integer micros, prices as REAL. */
const VALUE_TYPES: Readonly<Record<(typeof COST_COLUMN_TYPES)[keyof typeof COST_COLUMN_TYPES], SqlValueType>> = {
  string: 'text',
  datetime: 'integer',
  int: 'real',
};

function printField(field: FieldRef): FieldSql {
  if (field.kind === 'column' && isCostColumn(field.name)) {
    return { ...sqlIdentifier(field.name), type: VALUE_TYPES[COST_COLUMN_TYPES[field.name]] };
  }
  throw new Error(`costs cannot print field ${JSON.stringify(field)}`);
}

export function createSqliteCostStore(db: SqliteDb, writer: SqliteWriter): CostStore {
  const projectStmt = db.prepare(`SELECT ${COLUMN_LIST} FROM llm_token_prices
    WHERE llm_id ${IN_LIST} AND pricing_level = 'project' AND pricing_level_id = ?`);

  return {
    async insert(rows) {
      if (rows.length > 0) await writer.run('costs.insert', [rows]);
    },

    async query(q) {
      const params: unknown[] = [];
      let sql = `SELECT ${COLUMN_LIST} FROM llm_token_prices`;
      if (q.where) {
        const w = printSqliteExpr(q.where, printField);
        sql += ` WHERE ${w.sql}`;
        params.push(...w.params);
      }
      // No requested order: insertion order (rowid); rowid also breaks ties of a requested one.
      const order = printSqliteOrderBy(q.sort, printField);
      sql += order.sql ? ` ${order.sql}, rowid` : ' ORDER BY rowid';
      params.push(...order.params);
      if (q.limit !== null || q.offset !== null) {
        sql += ' LIMIT ? OFFSET ?';
        params.push(q.limit ?? -1, q.offset ?? 0);
      }
      return db.prepare(sql).all(...params) as PriceRow[];
    },

    async purgeProjectPrices(projectId, ids) {
      return ids.length === 0 ? 0 : writer.run('costs.purge', [projectId, ids]);
    },

    async findProjectPrices(projectId, llmIds) {
      if (llmIds.length === 0) return [];
      return projectStmt.all(JSON.stringify(llmIds), projectId) as PriceRow[];
    },
  };
}
