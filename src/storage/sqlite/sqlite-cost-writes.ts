// The write procedures of token prices (run by the writer inside its transaction, see
// sqlite-writer.ts). Lists travel as one JSON-array parameter read with json_each.
import { COST_COLUMNS } from '../../query/cost-fields.js';
import { DEFAULT_PRICING_LEVEL_ID, type PriceRow } from '../cost-store.js';
import type { SqliteDb } from './sqlite-database.js';

export const COST_COLUMN_LIST = COST_COLUMNS.join(', ');
const IN_LIST = 'IN (SELECT value FROM json_each(?))';
const VALUES = `(${COST_COLUMNS.map((c) => `@${c}`).join(', ')})`;

export function costWrites(db: SqliteDb) {
  const insert = db.prepare(`INSERT INTO llm_token_prices (${COST_COLUMN_LIST}) VALUES ${VALUES}`);
  // Default rows keep their first created_at / created_by: they record when the price arrived.
  const upsertDefault = db.prepare(`INSERT INTO llm_token_prices (${COST_COLUMN_LIST}) VALUES ${VALUES}
    ON CONFLICT (id) DO UPDATE SET pricing_level = excluded.pricing_level, pricing_level_id = excluded.pricing_level_id,
      provider_id = excluded.provider_id, llm_id = excluded.llm_id, effective_date = excluded.effective_date,
      prompt_token_cost = excluded.prompt_token_cost, completion_token_cost = excluded.completion_token_cost,
      prompt_token_cost_unit = excluded.prompt_token_cost_unit, completion_token_cost_unit = excluded.completion_token_cost_unit`);
  const dropStaleDefaults = db.prepare(`DELETE FROM llm_token_prices
    WHERE pricing_level = 'default' AND pricing_level_id = ? AND id NOT ${IN_LIST}`);
  const purge = db.prepare(`DELETE FROM llm_token_prices
    WHERE pricing_level = 'project' AND pricing_level_id = ? AND id ${IN_LIST}`);
  return {
    'costs.insert'(rows: readonly PriceRow[]): void {
      for (const row of rows) insert.run(row);
    },
    'costs.purge'(projectId: string, ids: readonly string[]): number {
      return purge.run(projectId, JSON.stringify(ids)).changes;
    },
    'costs.syncDefaults'(rows: readonly PriceRow[]): void {
      for (const row of rows) upsertDefault.run(row);
      dropStaleDefaults.run(DEFAULT_PRICING_LEVEL_ID, JSON.stringify(rows.map((r) => r.id)));
    },
  };
}
