// Opens the storage engine a configuration names: the SQLite file in the data directory, or a
// ClickHouse database (created and migrated on first use). Shared by the server and the CLI.
import type { Config } from './config.js';
import { createSqliteStore, type SqliteStoreOptions } from './storage/sqlite/store.js';
import { createClickHouseStore } from './storage/clickhouse/store.js';
import { chdbConnection } from './storage/clickhouse/engine/chdb.js';
import type { Store } from './storage/store.js';
import { StartupError } from './startup-error.js';

/** The one line for a ClickHouse that cannot be used: unreachable, refusing the user, or newer. */
function clickHouseError(err: unknown, config: Config): Error {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown })?.code;
  const at = `ClickHouse at ${config.clickhouseUrl}`;
  if (typeof code === 'string' && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|ECONNRESET)$/.test(code)) {
    return new StartupError(`cannot reach ${at} (${code}): start it, or set WEFT_CLICKHOUSE_URL (--clickhouse-url)`, {
      cause: err,
    });
  }
  if (code === '516' || code === '192' || code === '193' || /Authentication failed/i.test(message)) {
    return new StartupError(
      `${at} refused user ${config.clickhouseUser ?? 'default'}: set WEFT_CLICKHOUSE_USER and WEFT_CLICKHOUSE_PASSWORD`,
      { cause: err },
    );
  }
  return new StartupError(`cannot use ${at}: ${message}`, { cause: err });
}

/** The store the configuration names, opened (and migrated); its problems as StartupErrors. */
export async function openStore(config: Config, opts: SqliteStoreOptions = {}): Promise<Store> {
  if (config.engine === 'clickhouse') {
    try {
      const connection = chdbConnection(config.clickhouseUrl);
      return await createClickHouseStore({
        url: config.clickhouseUrl,
        user: config.clickhouseUser,
        password: config.clickhousePassword,
        database: config.clickhouseDatabase,
        cluster: config.clickhouseCluster,
        callCacheBytes: config.clickhouseCallCacheBytes,
        ...(connection ? { connection } : {}),
      });
    } catch (err) {
      throw clickHouseError(err, config);
    }
  }
  return createSqliteStore(config.dataDir, {
    onUpgrade: (from, to) =>
      process.stderr.write(
        `weft: upgrading the database in ${config.dataDir} from schema ${from} to ${to}; on a large database this takes a minute or more\n`,
      ),
    onRekey: () =>
      process.stderr.write(
        `weft: the calls in ${config.dataDir} were renumbered outside Weft (a dump or recovery); their id keys were rebuilt\n`,
      ),
    ...opts,
  });
}
