import type { ObjectStore } from '../object-store.js';
import type { SqliteDb } from './sqlite-database.js';

export function createSqliteObjectStore(_db: SqliteDb): ObjectStore {
  return {};
}
