// Entry point: read config, open the store, build the app, listen; close cleanly on signals.
// What stops startup is said in one line that names the problem and the fix, exit code 1
// (2 for a usage mistake); the stack only with WEFT_LOG_LEVEL=debug.
import './node-version.js';
import { parseArgs } from 'node:util';
import { argsError, ConfigError, configFrom, SETTING_OPTIONS, type Config } from './config.js';
import { serverUsage } from './cli/usage.js';
import { weftVersion } from './package-root.js';
import { buildApp } from './http/app.js';
import { closeGracefully } from './http/graceful-close.js';
import { openStore } from './open-store.js';
import { isLoopback } from './http/auth-mode.js';
import { hostPolicy } from './http/host-policy.js';
import { StartupError } from './startup-error.js';

/** The one line for an error of listen(): a busy port, a port this user may not bind. */
function listenError(err: unknown, config: Config): Error {
  const code = (err as { code?: unknown })?.code;
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `port ${config.port} on ${config.host} is already in use: stop the other server, or choose another port with PORT (--port)`,
      { cause: err },
    );
  }
  if (code === 'EACCES') {
    return new StartupError(
      `not allowed to listen on port ${config.port} of ${config.host}: choose a port above 1023 with PORT (--port)`,
      { cause: err },
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new StartupError(`cannot listen on ${config.host}: no such address here; set HOST (--host)`, { cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}

async function main(config: Config): Promise<void> {
  const store = await openStore(config);
  const data =
    config.engine === 'clickhouse'
      ? `ClickHouse ${config.clickhouseUrl}, database ${config.clickhouseDatabase}`
      : config.dataDir;
  // No keys means open access: only on loopback, unless the operator says otherwise.
  const keyed = await store.auth.hasKeys();
  if (!isLoopback(config.host) && !config.insecureOpen && !keyed) {
    await store.close();
    process.stderr.write(
      `weft: refusing to listen on ${config.host} without API keys: anyone who can reach it could read and write every project.\n` +
        `Create a key first (weft keys create --user NAME --entity ENTITY --role admin ${config.engine === 'sqlite' ? `--data-dir ${config.dataDir}` : 'with the same WEFT_ENGINE and WEFT_CLICKHOUSE_* settings'}),\n` +
        `or pass --insecure-open (WEFT_INSECURE_OPEN=true) to serve without keys anyway.\n`,
    );
    process.exit(2);
  }
  const app = await buildApp({ store, config });
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await app.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw listenError(err, config);
  }
  const remoteHint =
    !isLoopback(config.host) && config.allowedHosts.length === 0
      ? ' (other machines: list the name or address they use in WEFT_ALLOWED_HOSTS)'
      : '';
  const access = keyed
    ? 'API keys required'
    : `open mode, no API keys: answering Host ${hostPolicy(config.allowedHosts).describe()}${remoteHint}`;
  process.stdout.write(`weft listening on ${address} (data: ${data}; ${access})\n`);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await closeGracefully(app);
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** The server's flags: the settings (config.ts), --help and --version. */
function serverFlags(argv: readonly string[]) {
  try {
    const options = {
      ...SETTING_OPTIONS,
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    } as const;
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw argsError(err);
  }
}

let config: Config;
try {
  const values = serverFlags(process.argv.slice(2));
  if (values.help) {
    process.stdout.write(serverUsage());
    process.exit(0);
  }
  if (values.version) {
    process.stdout.write(`weft ${weftVersion()}\n`);
    process.exit(0);
  }
  config = configFrom(values, process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`weft: ${err.message}\nRun weft --help for the options.\n`);
  process.exit(2);
}
main(config).catch((err) => {
  const debug = config.logLevel === 'debug';
  if (err instanceof StartupError) {
    process.stderr.write(`weft: ${err.message}\n`);
    if (debug) process.stderr.write(`${String((err.cause as Error | undefined)?.stack ?? err.stack)}\n`);
  } else {
    process.stderr.write(`weft: ${err instanceof Error ? (debug ? err.stack : err.message) : String(err)}\n`);
  }
  process.exit(1);
});
