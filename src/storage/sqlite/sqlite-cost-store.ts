import type { CostStore } from '../cost-store.js';
import type { SqliteDb } from './sqlite-database.js';

export function createSqliteCostStore(_db: SqliteDb): CostStore {
  return {};
}
