// Entry point: read config, open the store, build the app, listen; close cleanly on signals.
import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './http/app.js';
import { createSqliteStore } from './storage/sqlite/sqlite-store.js';
import { isLoopback } from './http/auth-mode.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`weft: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const store = createSqliteStore(config.dataDir, {
    onUpgrade: (from, to) => process.stderr.write(`weft: upgrading the database in ${config.dataDir} from schema ${from} to ${to}; on a large database this takes a minute or more\n`),
  });
  // No keys means open access: only on loopback, unless the operator says otherwise.
  if (!isLoopback(config.host) && !config.insecureOpen && !(await store.auth.hasKeys())) {
    await store.close();
    process.stderr.write(
      `weft: refusing to listen on ${config.host} without API keys: anyone who can reach it could read and write every project.\n` +
        `Create a key first (weft keys create --user NAME --entity ENTITY --role admin --data-dir ${config.dataDir}),\n` +
        `or pass --insecure-open (WEFT_INSECURE_OPEN=true) to serve without keys anyway.\n`,
    );
    process.exit(2);
  }
  const app = await buildApp({ store, config });
  const address = await app.listen({ host: config.host, port: config.port });
  process.stdout.write(`weft listening on ${address} (data: ${config.dataDir})\n`);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  process.stderr.write(`weft: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
