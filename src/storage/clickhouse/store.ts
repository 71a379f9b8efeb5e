// The ClickHouse engine: every resource in one ClickHouse database, reached over HTTP with the
// official client (or, for tests and experiments, chdb in process through the same client).
// Weft keeps no state of its own beside it: several Weft processes on one database are
// replicas. Opening it creates the database and applies the migrations it lacks.
import { createClickHouseSecretStore } from './secrets/secret-store.js';
import { createClickHouseScoreJobStore } from './signals/score-job-store.js';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Store } from '../store.js';
import { connectClickHouse, selectRows, type ClickHouseConnection } from './engine/client.js';
import { chIdentifier } from './engine/dialect.js';
import { migrateClickHouse } from './engine/migrations/index.js';
import { SINGLE_SERVER, type ChDdlMode } from './engine/ddl.js';
import { createClickHouseCallStore } from './calls/call-store.js';
import { createClickHouseObjectStore } from './objects/object-store.js';
import { createClickHouseFeedbackStore } from './feedback/feedback-store.js';
import { createClickHouseTableStore } from './tables/table-store.js';
import { createClickHouseFileStore } from './files/file-store.js';
import { createClickHouseCostStore } from './costs/cost-store.js';
import { createClickHouseProjectSettingsStore } from './settings/settings-store.js';
import { createClickHouseAuthStore } from './auth/auth-store.js';
import { createClickHouseSpanStore } from './spans/span-store.js';
import { createClickHouseHistoricalTurnStore } from './historical-turns/historical-turn-store.js';
import { clickHouseFault } from './engine/faults.js';
import { createCommitListeners } from '../engine/commit-listeners.js';
import { withInsertTiming } from './engine/insert-timing.js';

export interface ClickHouseStoreOptions {
  readonly url: string;
  readonly user?: string | null;
  readonly password?: string | null;
  readonly database: string;
  /** A cluster: ON CLUSTER DDL, replicated tables, Distributed ones when it has several shards. */
  readonly cluster?: string | null;
  /** Replaces the HTTP connection (chdb in process). */
  readonly connection?: ClickHouseConnection;
  /** An existing client to share (its owner closes it); `url` then only names it in messages. */
  readonly client?: ClickHouseClient;
  /** Bytes of calls kept to serve pages read again (clickhouse/calls/call-cache.ts); 0: none. Default 64 MiB. */
  readonly callCacheBytes?: number;
}

/** The stores of one database on a connected client (no migration). */
export function clickHouseStores(
  untimed: ClickHouseClient,
  database: string,
  where: string,
  mode: ChDdlMode = SINGLE_SERVER,
  callCacheBytes?: number,
): Omit<Store, 'close'> {
  const commits = createCommitListeners();
  const client = withInsertTiming(untimed, commits);
  return {
    calls: createClickHouseCallStore(client, database, mode, callCacheBytes),
    objects: createClickHouseObjectStore(client, database),
    feedback: createClickHouseFeedbackStore(client, database, mode),
    tables: createClickHouseTableStore(client, database),
    files: createClickHouseFileStore(client, database, undefined, mode),
    costs: createClickHouseCostStore(client, database, mode),
    projects: createClickHouseProjectSettingsStore(client, database),
    auth: createClickHouseAuthStore(client, database),
    spans: createClickHouseSpanStore(client, database, mode),
    historicalTurns: createClickHouseHistoricalTurnStore(client, database),
    secrets: createClickHouseSecretStore(client, database),
    scoreJobs: createClickHouseScoreJobStore(client, database),
    stats: {
      // The parts of the server Weft talks to (on a cluster, that node's share).
      async sizeBytes() {
        const [row] = await selectRows<{ bytes: string }>(
          client,
          'SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = {d:String} AND active',
          { d: database },
        );
        return Number(row?.bytes ?? 0);
      },
      onCommit: commits.add,
    },
    health: () => ({ status: 'ok' }),
    async projectIds() {
      const db = chIdentifier(database);
      const from = [
        'calls',
        'object_versions',
        'tables',
        'files',
        'feedback',
        'project_settings',
        'spans',
        'historical_turns',
        'score_jobs',
      ].map((t) => `SELECT DISTINCT project_id AS p FROM ${db}.${t}`);
      from.push(`SELECT DISTINCT pricing_level_id AS p FROM ${db}.llm_token_prices WHERE pricing_level = 'project'`);
      return (await selectRows<{ p: string }>(client, `SELECT DISTINCT p FROM (${from.join(' UNION ALL ')})`)).map(
        (r) => r.p,
      );
    },
    storageFault: (err) => clickHouseFault(err, where),
  };
}

/** Whether the cluster has several shards (then tables are <name>_local under Distributed ones). */
async function ddlMode(client: ClickHouseClient, cluster: string | null): Promise<ChDdlMode> {
  if (cluster === null) return { cluster: null, sharded: false };
  const [row] = await selectRows<{ shards: string }>(
    client,
    'SELECT uniqExact(shard_num) AS shards FROM system.clusters WHERE cluster = {c:String}',
    { c: cluster },
  );
  const shards = Number(row?.shards ?? 0);
  if (shards === 0)
    throw new Error(`ClickHouse has no cluster named ${cluster} (system.clusters); check WEFT_CLICKHOUSE_CLUSTER`);
  return { cluster, sharded: shards > 1 };
}

export async function createClickHouseStore(opts: ClickHouseStoreOptions): Promise<Store> {
  const client =
    opts.client ??
    connectClickHouse({
      url: opts.url,
      database: opts.database,
      ...(opts.user ? { user: opts.user } : {}),
      ...(opts.password ? { password: opts.password } : {}),
      ...(opts.connection ? { connection: opts.connection } : {}),
    });
  let mode: ChDdlMode;
  try {
    mode = await ddlMode(client, opts.cluster ?? null);
    await migrateClickHouse(client, opts.database, mode);
  } catch (err) {
    if (!opts.client) await client.close().catch(() => undefined);
    throw err;
  }
  return {
    ...clickHouseStores(client, opts.database, opts.url, mode, opts.callCacheBytes),
    async close() {
      if (!opts.client) await client.close();
    },
  };
}
