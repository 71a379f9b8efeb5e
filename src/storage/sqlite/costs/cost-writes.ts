// The write procedures of token prices (run by the writer inside its transaction, see
// sqlite/engine/writer.ts). Lists travel as one JSON-array parameter read with json_each.
import { COST_COLUMNS } from '../../../query/cost-fields.js';
import type { PriceRow } from '../../costs/cost-store.js';
import type { SqliteDb } from '../engine/database.js';

export const COST_COLUMN_LIST = COST_COLUMNS.join(', ');
const IN_LIST = 'IN (SELECT value FROM json_each(?))';
const VALUES = `(${COST_COLUMNS.map((c) => `@${c}`).join(', ')})`;

export function costWrites(db: SqliteDb) {
  const insert = db.prepare(`INSERT INTO llm_token_prices (${COST_COLUMN_LIST}) VALUES ${VALUES}`);
  const purge = db.prepare(`DELETE FROM llm_token_prices
    WHERE pricing_level = 'project' AND pricing_level_id = ? AND id ${IN_LIST}`);
  return {
    'costs.insert'(rows: readonly PriceRow[]): void {
      for (const row of rows) insert.run(row);
    },
    'costs.purge'(projectId: string, ids: readonly string[]): number {
      return purge.run(projectId, JSON.stringify(ids)).changes;
    },
  };
}
