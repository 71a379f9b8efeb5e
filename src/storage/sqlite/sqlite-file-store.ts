import type { FileStore } from '../file-store.js';
import type { SqliteDb } from './sqlite-database.js';

export function createSqliteFileStore(_db: SqliteDb): FileStore {
  return {};
}
