// `weft keys ...`: create, list and revoke API keys in the data directory's database;
// `weft copy ...`: copy a Weft's history between engines (cli/copy.ts).
// `weft backup FILE`: a consistent copy of the SQLite database, also while serving (cli/backup.ts).
// `weft secrets ...`: set, list and delete an entity's secrets (cli/secrets.ts).
// Whoever can run this can read the database file anyway, so the CLI acts with full rights.
//   weft keys create --user NAME --entity ENTITY --role admin|writer|reader [--project PROJECT] [--json]
//   weft keys list [--json]
//   weft keys revoke ID
// Every command takes --data-dir DIR (default: WEFT_DATA_DIR, else ./weft-data), or the
// server's ClickHouse settings (--engine clickhouse, --clickhouse-url ..., or their WEFT_* variables).
import './node-version.js';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { argsError, ConfigError, configFrom, DEFAULTS, SETTINGS } from './config.js';
import { openStore } from './open-store.js';
import { COPY_USAGE, CopyUsageError, runCopy } from './cli/copy.js';
import { runBackup } from './cli/backup.js';
import { runSecrets, SECRETS_USAGE, SecretsUsageError } from './cli/secrets.js';
import type { AuthStore } from './storage/auth/auth-store.js';
import { WeftError } from './api/errors.js';
import { StartupError } from './startup-error.js';
import { OPEN_ACCESS } from './service/auth/auth-access.js';
import { createKey, listKeys, revokeKey } from './service/auth/auth-keys.js';
import { openSqlite } from './storage/sqlite/engine/database.js';
import { SQLITE_MIGRATIONS } from './storage/sqlite/engine/migrations/index.js';
import { SQLITE_FILE } from './storage/sqlite/store.js';
import { createSqliteAuthStore } from './storage/sqlite/auth/auth-store.js';
import { createInlineWriter } from './storage/sqlite/engine/writer.js';

const USAGE = `usage:
  weft keys create --user NAME --entity ENTITY --role admin|writer|reader [--project PROJECT] [--json] [--data-dir DIR]
  weft keys list [--json] [--data-dir DIR]
  weft keys revoke ID [--data-dir DIR]
  The server's storage settings choose the database: --data-dir (WEFT_DATA_DIR), or --engine
  clickhouse and --clickhouse-* (their WEFT_* variables); see weft --help.
  Exit codes: 0 done, 1 failed (a bad role, an unknown key...), 2 usage.
`;

class UsageError extends Error {}

interface Parsed {
  readonly positional: string[];
  readonly options: Map<string, string>;
  readonly json: boolean;
  readonly help: boolean;
}

/** Storage flags, read as the server reads them (config.ts). */
const STORAGE = SETTINGS.filter((s) => s.key === 'engine' || s.key.startsWith('clickhouse')).map((s) => s.flag);
const OPTIONS = {
  ...Object.fromEntries(
    ['user', 'entity', 'role', 'project', 'data-dir', ...STORAGE].map((f) => [f, { type: 'string' as const }]),
  ),
  json: { type: 'boolean' as const },
  help: { type: 'boolean' as const, short: 'h' },
};

function parse(argv: readonly string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(argsError(err).message);
  }
  const options = new Map<string, string>();
  for (const [flag, v] of Object.entries(parsed.values)) if (typeof v === 'string') options.set(`--${flag}`, v);
  return {
    positional: parsed.positionals,
    options,
    json: parsed.values.json === true,
    help: parsed.values.help === true,
  };
}

function need(p: Parsed, flag: string): string {
  const v = p.options.get(flag);
  if (v === undefined || v === '') throw new UsageError(`keys create needs ${flag}`);
  return v;
}

async function run(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'copy') return runCopy(argv.slice(1));
  if (argv[0] === 'backup') return runBackup(argv.slice(1));
  if (argv[0] === 'secrets') return runSecrets(argv.slice(1));
  if (argv[0] !== 'keys') throw new UsageError(`unknown command ${argv[0] ?? '(none)'}`);
  const p = parse(argv.slice(1));
  if (p.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, ...rest] = p.positional;
  // Before the database is opened: a usage mistake creates nothing.
  if (command !== 'create' && command !== 'list' && command !== 'revoke')
    throw new UsageError(`unknown keys command ${command ?? '(none)'}`);
  const { auth, close } = await openAuth(p);
  const out = (s: string) => process.stdout.write(`${s}\n`);
  try {
    switch (command) {
      case 'create': {
        const k = await createKey(
          auth,
          {
            user: need(p, '--user'),
            entity: need(p, '--entity'),
            role: need(p, '--role'),
            project: p.options.get('--project') ?? null,
          },
          OPEN_ACCESS,
        );
        if (p.json) out(JSON.stringify(k));
        else {
          out(`created key ${k.id} for user ${k.user} (${k.role} on ${k.entity}/${k.project ?? '*'})`);
          out(k.key);
          out('store it now: it is shown only this once.');
        }
        return 0;
      }
      case 'list': {
        const keys = await listKeys(auth, OPEN_ACCESS);
        if (p.json) out(JSON.stringify(keys));
        else {
          out(['id', 'prefix', 'user', 'roles', 'created_at', 'revoked_at'].join('\t'));
          for (const k of keys) {
            const roles = k.roles.map((g) => `${g.role}:${g.entity}/${g.project ?? '*'}`).join(',');
            out([k.id, `${k.prefix}…`, k.user, roles, k.created_at, k.revoked_at ?? '-'].join('\t'));
          }
        }
        return 0;
      }
      case 'revoke': {
        if (rest.length !== 1) throw new UsageError('keys revoke needs one key id');
        const r = await revokeKey(auth, rest[0]!, OPEN_ACCESS);
        out(`revoked key ${r.id} at ${r.revoked_at}`);
        return 0;
      }
    }
  } finally {
    await close();
  }
}

async function openAuth(p: Parsed): Promise<{ auth: AuthStore; close: () => Promise<void> }> {
  const config = configFrom(Object.fromEntries(STORAGE.map((f) => [f, p.options.get(`--${f}`)])), process.env);
  if (config.engine === 'clickhouse') {
    const store = await openStore(config);
    return { auth: store.auth, close: () => store.close() };
  }
  const dataDir = resolve(p.options.get('--data-dir') ?? (process.env.WEFT_DATA_DIR || DEFAULTS.dataDir));
  const db = openSqlite(join(dataDir, SQLITE_FILE), SQLITE_MIGRATIONS);
  // One write and exit: written inline, on this connection (a running server's writer waits
  // for it through SQLite's busy timeout).
  return {
    auth: createSqliteAuthStore(db, createInlineWriter(db)),
    close: async () => {
      db.close();
    },
  };
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`weft: ${err.message}\n${USAGE}`);
      process.exit(2);
    }
    if (err instanceof SecretsUsageError) {
      process.stderr.write(`weft: ${err.message}\n${SECRETS_USAGE}`);
      process.exit(2);
    }
    if (err instanceof CopyUsageError) {
      process.stderr.write(`weft: ${err.message}\n${COPY_USAGE}`);
      process.exit(2);
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`weft: ${err.message}\n${USAGE}`);
      process.exit(2);
    }
    if (err instanceof WeftError || err instanceof StartupError) {
      process.stderr.write(`weft: ${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`weft: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
