// The SQLite CostStore: one `llm_token_prices` table (sqlite-costs-schema.ts). Each write
// is one transaction; values reach SQL only as parameters (lists as one JSON-array
// parameter read with json_each), identifiers only from the cost column allow-list.
import type { FieldRef } from '../../query/plan.js';
import { COST_COLUMNS, COST_COLUMN_TYPES, isCostColumn } from '../../query/cost-fields.js';
import { DEFAULT_PRICING_LEVEL_ID, type CostStore, type PriceRow } from '../cost-store.js';
import { printSqliteExpr, printSqliteOrderBy, sqlIdentifier, type FieldSql, type SqlValueType } from './sqlite-dialect.js';
import type { SqliteDb } from './sqlite-database.js';

const COLUMN_LIST = COST_COLUMNS.join(', ');
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

export function createSqliteCostStore(db: SqliteDb): CostStore {
  const insertStmt = db.prepare(`INSERT INTO llm_token_prices (${COLUMN_LIST}) VALUES (${COST_COLUMNS.map((c) => `@${c}`).join(', ')})`);
  // Default rows keep their first created_at / created_by: they record when the price arrived.
  const upsertDefaultStmt = db.prepare(`INSERT INTO llm_token_prices (${COLUMN_LIST}) VALUES (${COST_COLUMNS.map((c) => `@${c}`).join(', ')})
    ON CONFLICT (id) DO UPDATE SET pricing_level = excluded.pricing_level, pricing_level_id = excluded.pricing_level_id,
      provider_id = excluded.provider_id, llm_id = excluded.llm_id, effective_date = excluded.effective_date,
      prompt_token_cost = excluded.prompt_token_cost, completion_token_cost = excluded.completion_token_cost,
      prompt_token_cost_unit = excluded.prompt_token_cost_unit, completion_token_cost_unit = excluded.completion_token_cost_unit`);
  const dropStaleDefaultsStmt = db.prepare(`DELETE FROM llm_token_prices
    WHERE pricing_level = 'default' AND pricing_level_id = ? AND id NOT ${IN_LIST}`);
  const purgeStmt = db.prepare(`DELETE FROM llm_token_prices
    WHERE pricing_level = 'project' AND pricing_level_id = ? AND id ${IN_LIST}`);
  const applicableStmt = db.prepare(`SELECT ${COLUMN_LIST} FROM llm_token_prices
    WHERE llm_id ${IN_LIST} AND ((pricing_level = 'project' AND pricing_level_id = ?) OR (pricing_level = 'default' AND pricing_level_id = ?))`);

  const insertAll = db.transaction((rows: readonly PriceRow[]) => {
    for (const row of rows) insertStmt.run(row);
  });
  const syncDefaults = db.transaction((rows: readonly PriceRow[]) => {
    for (const row of rows) upsertDefaultStmt.run(row);
    dropStaleDefaultsStmt.run(DEFAULT_PRICING_LEVEL_ID, JSON.stringify(rows.map((r) => r.id)));
  });

  return {
    async insert(rows) {
      if (rows.length > 0) insertAll.immediate(rows);
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
      if (ids.length === 0) return 0;
      return purgeStmt.run(projectId, JSON.stringify(ids)).changes;
    },

    async findApplicablePrices(projectId, llmIds) {
      if (llmIds.length === 0) return [];
      return applicableStmt.all(JSON.stringify(llmIds), projectId, DEFAULT_PRICING_LEVEL_ID) as PriceRow[];
    },

    async syncDefaultPrices(rows) {
      syncDefaults.immediate(rows);
    },
  };
}
