// The embedded default engine: one SQLite file (WAL) under the data directory. Point reads
// run on this thread's connection, reads that may scan on the reader threads
// (sqlite/engine/read-threads.ts), and every write goes through the one writer (sqlite/engine/writer.ts).
import { createSqliteSecretStore } from './secrets/secret-store.js';
import { createSqliteScoreJobStore } from './signals/score-job-store.js';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store.js';
import { openSqlite, type OnUpgrade, type SqliteDb } from './engine/database.js';
import { SQLITE_MIGRATIONS } from './engine/migrations/index.js';
import { rekeyIfRenumbered } from './calls/call-ids.js';
import { createSqliteCallStore } from './calls/call-store.js';
import { createSqliteObjectStore } from './objects/object-store.js';
import { createSqliteFeedbackStore } from './feedback/feedback-store.js';
import { createSqliteTableStore } from './tables/table-store.js';
import { createSqliteFileStore } from './files/file-store.js';
import { dropInterruptedUploads } from './files/file-writes.js';
import { createSqliteCostStore } from './costs/cost-store.js';
import { createSqliteProjectSettingsStore } from './settings/settings-store.js';
import { createSqliteAuthStore } from './auth/auth-store.js';
import { createSqliteSpanStore } from './spans/span-store.js';
import { createSqliteHistoricalTurnStore } from './historical-turns/historical-turn-store.js';
import { createInlineWriter, createSqliteWriter } from './engine/writer.js';
import { createReadThreads } from './engine/read-threads.js';
import { sqliteFault } from './engine/faults.js';

export const SQLITE_FILE = 'weft.sqlite';

/** Every project with a stored row of any resource (each union member reads an index). */
const PROJECT_IDS = `SELECT DISTINCT project_id AS p FROM calls UNION SELECT DISTINCT project_id FROM object_versions
  UNION SELECT DISTINCT project_id FROM tables UNION SELECT DISTINCT project_id FROM files
  UNION SELECT DISTINCT project_id FROM feedback UNION SELECT DISTINCT project_id FROM project_settings
  UNION SELECT DISTINCT pricing_level_id FROM llm_token_prices WHERE pricing_level = 'project'
  UNION SELECT DISTINCT project_id FROM spans UNION SELECT DISTINCT project_id FROM historical_turns
  UNION SELECT DISTINCT project_id FROM score_jobs`;

/** Bytes of a file, 0 when it does not exist (the WAL between checkpoints may not). */
const fileBytes = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );

/** Bytes of the database: its file and WAL, or (in memory) its pages. */
async function databaseBytes(db: SqliteDb, path: string): Promise<number> {
  if (path === ':memory:')
    return Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }));
  const [main, wal] = await Promise.all([fileBytes(path), fileBytes(`${path}-wal`)]);
  return main + wal;
}

export interface SqliteStoreOptions {
  /**
   * Run writes on this thread, synchronously (the CLI, and bulk loads that wrap many writes
   * in one transaction of their own). Default: the worker-thread writer.
   */
  readonly inlineWrites?: boolean;
  /** Told before an existing database's schema is upgraded (large databases take a while). */
  readonly onUpgrade?: OnUpgrade;
  /** Told when the calls' id keys were rebuilt because their rowids had changed (sqlite/calls/call-ids.ts). */
  readonly onRekey?: () => void;
}

/** Opens (creating if needed) the store in `dataDir`, or in memory for ':memory:'. */
export function createSqliteStore(
  dataDir: string,
  opts: SqliteStoreOptions = {},
): Store & { readonly db: ReturnType<typeof openSqlite> } {
  const path = dataDir === ':memory:' ? ':memory:' : join(dataDir, SQLITE_FILE);
  const db = openSqlite(path, SQLITE_MIGRATIONS, opts.onUpgrade);
  dropInterruptedUploads(db);
  if (rekeyIfRenumbered(db)) opts.onRekey?.();
  const writer = opts.inlineWrites ? createInlineWriter(db) : createSqliteWriter(db, path);
  const reads = createReadThreads(db, path);
  return {
    db,
    calls: createSqliteCallStore(db, reads, writer),
    objects: createSqliteObjectStore(db, reads, writer),
    feedback: createSqliteFeedbackStore(db, writer, reads),
    tables: createSqliteTableStore(db, reads, writer),
    files: createSqliteFileStore(db, writer),
    costs: createSqliteCostStore(db, writer),
    projects: createSqliteProjectSettingsStore(db, writer),
    auth: createSqliteAuthStore(db, writer),
    spans: createSqliteSpanStore(db, reads, writer),
    historicalTurns: createSqliteHistoricalTurnStore(db, writer),
    secrets: createSqliteSecretStore(db, writer),
    scoreJobs: createSqliteScoreJobStore(db, writer),
    stats: { sizeBytes: () => databaseBytes(db, path), onCommit: writer.onCommit },
    health: () => writer.health(),
    async projectIds() {
      const rows = await reads.all<{ p: string }>(PROJECT_IDS, []);
      return rows.map((r) => r.p);
    },
    storageFault: (err) =>
      err instanceof Error ? sqliteFault((err as { code?: unknown }).code, err.message, path) : null,
    async close() {
      await writer.close();
      await reads.close();
      db.close();
    },
  };
}
