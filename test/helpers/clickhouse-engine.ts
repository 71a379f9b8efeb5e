// The ClickHouse engine under test: the real engine in process (chdb, installed by
// scripts/ensure-chdb.mjs) behind the same @clickhouse/client code that talks HTTP in
// production. chdb holds one data directory per process, so every test app of a process
// shares one connection and client, each with a database of its own.
//
// The engine is being built resource by resource: until it has them all, a test store takes
// the resources ClickHouse implements from it (today: every resource but calls) and the rest
// from SQLite, so the HTTP contract tests of those resources run against ClickHouse now.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { connectClickHouse, type ClickHouseConnection } from '../../src/storage/clickhouse/clickhouse-client.js';
import { createClickHouseAuthStore } from '../../src/storage/clickhouse/clickhouse-auth-store.js';
import { createClickHouseCostStore } from '../../src/storage/clickhouse/clickhouse-cost-store.js';
import { createClickHouseFeedbackStore } from '../../src/storage/clickhouse/clickhouse-feedback-store.js';
import { createClickHouseFileStore } from '../../src/storage/clickhouse/clickhouse-file-store.js';
import { createClickHouseTableStore } from '../../src/storage/clickhouse/clickhouse-table-store.js';
import { createClickHouseObjectStore } from '../../src/storage/clickhouse/clickhouse-object-store.js';
import { migrateClickHouse } from '../../src/storage/clickhouse/clickhouse-migrations.js';
import { clickHouseFault } from '../../src/storage/clickhouse/clickhouse-faults.js';
import { createClickHouseProjectSettingsStore } from '../../src/storage/clickhouse/clickhouse-project-settings-store.js';
import type { Store } from '../../src/storage/store.js';

const CHDB = join(import.meta.dirname, '..', '..', '.cache', 'chdb', 'node_modules', 'chdb');

/** The engine the contract tests of this process run on (WEFT_TEST_ENGINE, default sqlite). */
export const testEngine = (): 'sqlite' | 'clickhouse' => (process.env.WEFT_TEST_ENGINE === 'clickhouse' ? 'clickhouse' : 'sqlite');

let client: ClickHouseClient | null = null;
let databases = 0;
const databaseOf = new WeakMap<Store, string>();

/** The ClickHouse database behind a test store (null: a SQLite store). */
export const clickhouseDatabase = (store: Store): string | null => databaseOf.get(store) ?? null;

/** The process's client on chdb (never closed: closing it would close chdb for every app). */
export function chdbClient(): ClickHouseClient {
  if (client === null) {
    const require = createRequire(join(CHDB, 'package.json'));
    let connection: ClickHouseConnection;
    try {
      const { createChdbConnection } = require('chdb/connection') as { createChdbConnection: (o: { path: string }) => ClickHouseConnection };
      connection = createChdbConnection({ path: mkdtempSync(join(tmpdir(), 'weft-chdb-')) });
    } catch (err) {
      throw new Error(`chdb is not installed (node scripts/ensure-chdb.mjs installs it): ${String(err)}`);
    }
    client = connectClickHouse({ url: 'http://chdb.invalid', database: 'unused', connection });
  }
  return client;
}

/** `base` with the resources the ClickHouse engine has, on a new database of the process's chdb. */
export async function withClickHouse(base: Store): Promise<Store> {
  const c = chdbClient();
  const database = `weft_test_${process.pid}_${databases++}`;
  await migrateClickHouse(c, database);
  const store: Store = {
    ...base,
    auth: createClickHouseAuthStore(c, database),
    costs: createClickHouseCostStore(c, database),
    feedback: createClickHouseFeedbackStore(c, database),
    files: createClickHouseFileStore(c, database),
    tables: createClickHouseTableStore(c, database),
    objects: createClickHouseObjectStore(c, database),
    storageFault: (err) => clickHouseFault(err, 'chdb in process') ?? base.storageFault(err),
    projects: createClickHouseProjectSettingsStore(c, database),
    async close() {
      await base.close();
      await c.command({ query: `DROP DATABASE IF EXISTS ${database}` });
    },
  };
  databaseOf.set(store, database);
  return store;
}
