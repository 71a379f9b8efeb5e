import type { TableStore } from '../table-store.js';
import type { SqliteDb } from './sqlite-database.js';

export function createSqliteTableStore(_db: SqliteDb): TableStore {
  return {};
}
