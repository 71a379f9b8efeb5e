// The embedded default engine: one SQLite file (WAL) under the data directory.
import { join } from 'node:path';
import type { Store } from '../store.js';
import { openSqlite } from './sqlite-database.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';
import { createSqliteCallStore } from './sqlite-call-store.js';
import { createSqliteObjectStore } from './sqlite-object-store.js';
import { createSqliteFeedbackStore } from './sqlite-feedback-store.js';
import { createSqliteTableStore } from './sqlite-table-store.js';
import { createSqliteFileStore } from './sqlite-file-store.js';
import { createSqliteCostStore } from './sqlite-cost-store.js';
import { createSqliteProjectSettingsStore } from './sqlite-project-settings-store.js';
import { createSqliteAuthStore } from './sqlite-auth-store.js';

export const SQLITE_FILE = 'weft.sqlite';

/** Opens (creating if needed) the store in `dataDir`, or in memory for ':memory:'. */
export function createSqliteStore(dataDir: string): Store {
  const path = dataDir === ':memory:' ? ':memory:' : join(dataDir, SQLITE_FILE);
  const db = openSqlite(path, SQLITE_MIGRATIONS);
  const calls = createSqliteCallStore(db, path);
  const tables = createSqliteTableStore(db, path);
  return {
    capabilities: { engine: 'sqlite', transactions: true },
    calls,
    objects: createSqliteObjectStore(db),
    feedback: createSqliteFeedbackStore(db),
    tables,
    files: createSqliteFileStore(db),
    costs: createSqliteCostStore(db),
    projects: createSqliteProjectSettingsStore(db),
    auth: createSqliteAuthStore(db),
    async close() {
      await calls.close();
      tables.close();
      db.close();
    },
  };
}
