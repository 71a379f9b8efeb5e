// The ClickHouse engine under test: the real engine in process (chdb, installed by
// scripts/ensure-chdb.mjs) behind the same @clickhouse/client code that talks HTTP in
// production. chdb holds one data directory per process, so every test app of a process
// shares one connection and client, each with a database of its own.
//
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { connectClickHouse, type ClickHouseConnection } from '../../src/storage/clickhouse/engine/client.js';
import { migrateClickHouse } from '../../src/storage/clickhouse/engine/migrations/index.js';
import { clickHouseStores } from '../../src/storage/clickhouse/store.js';
import type { Store } from '../../src/storage/store.js';

const CHDB = join(import.meta.dirname, '..', '..', '.cache', 'chdb', 'node_modules', 'chdb');

/** The engine the contract tests of this process run on (WEFT_TEST_ENGINE, default sqlite). */
export const testEngine = (): 'sqlite' | 'clickhouse' =>
  process.env.WEFT_TEST_ENGINE === 'clickhouse' ? 'clickhouse' : 'sqlite';

let client: ClickHouseClient | null = null;
let shared: ClickHouseConnection | null = null;
let databases = 0;
const databaseOf = new WeakMap<Store, string>();
const gateOf = new WeakMap<Store, ClickHouseGate>();

/**
 * What a test may do to the ClickHouse one test app talks to: hold its writes (inserts and
 * mutations wait, as behind a slow server) or take it down (every request fails as a refused
 * connection does, until it is back). The engine behind stays the real one.
 */
export interface ClickHouseGate {
  /** Holds writes until the returned function is called. */
  holdWrites(): () => void;
  down(): void;
  up(): void;
}

function gatedConnection(base: ClickHouseConnection): { connection: ClickHouseConnection; gate: ClickHouseGate } {
  let held: Promise<void> | null = null;
  let isDown = false;
  const refused = () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123 (test: ClickHouse is down)'), {
      code: 'ECONNREFUSED',
    });
  const connection = new Proxy(base, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || !['query', 'insert', 'command', 'exec', 'ping'].includes(String(name)))
        return value;
      return async (...args: unknown[]) => {
        if (isDown) throw refused();
        if (held !== null && (name === 'insert' || name === 'command')) await held;
        if (isDown) throw refused();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const gate: ClickHouseGate = {
    holdWrites() {
      let release!: () => void;
      held = new Promise((r) => (release = r));
      return () => {
        held = null;
        release();
      };
    },
    down: () => void (isDown = true),
    up: () => void (isDown = false),
  };
  return { connection, gate };
}

/** The gate of a test store's ClickHouse (null: a SQLite store). */
export const clickhouseGate = (store: Store): ClickHouseGate | null => gateOf.get(store) ?? null;

/** The ClickHouse database behind a test store (null: a SQLite store). */
export const clickhouseDatabase = (store: Store): string | null => databaseOf.get(store) ?? null;

/** The process's client on chdb (never closed: closing it would close chdb for every app). */
export function chdbClient(): ClickHouseClient {
  if (client === null) {
    const require = createRequire(join(CHDB, 'package.json'));
    let connection: ClickHouseConnection;
    try {
      const { createChdbConnection } = require('chdb/connection') as {
        createChdbConnection: (o: { path: string }) => ClickHouseConnection;
      };
      connection = createChdbConnection({ path: mkdtempSync(join(tmpdir(), 'weft-chdb-')) });
      shared = connection;
    } catch (err) {
      throw new Error(`chdb is not installed (node scripts/ensure-chdb.mjs installs it): ${String(err)}`);
    }
    client = connectClickHouse({ url: 'http://chdb.invalid', database: 'unused', connection });
  }
  return client;
}

/**
 * A ClickHouse store on a new database of the process's chdb, behind a gate of its own. `base`
 * (a SQLite store the test app also made) is closed with it; nothing of it is used.
 */
export async function withClickHouse(base: Store, existing?: string, callCacheBytes?: number): Promise<Store> {
  const c = chdbClient();
  const database = existing ?? `weft_test_${process.pid}_${databases++}`;
  if (existing === undefined) await migrateClickHouse(c, database);
  const { connection, gate } = gatedConnection(shared!);
  const gated = connectClickHouse({ url: 'http://chdb.invalid', database, connection });
  const store: Store = {
    ...clickHouseStores(gated, database, 'chdb in process', undefined, callCacheBytes),
    async close() {
      await base.close();
      if (existing === undefined) await c.command({ query: `DROP DATABASE IF EXISTS ${database}` });
    },
  };
  databaseOf.set(store, database);
  gateOf.set(store, gate);
  return store;
}
