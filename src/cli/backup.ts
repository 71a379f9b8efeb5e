// `weft backup FILE`: a consistent copy of the SQLite database, taken while the server runs
// (sqlite/engine/backup.ts says how). Exit codes: 0 written; 1 failed (the data
// directory has no database, FILE's directory is missing, an I/O error), FILE then untouched;
// 2 usage, which includes an existing FILE without --force (the command as given would destroy
// a file: nothing was done) and the ClickHouse engine; 130/143 interrupted (SIGINT/SIGTERM).
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { StartupError } from '../startup-error.js';
import { createProgressBar } from './progress.js';
import { SQLITE_FILE } from '../storage/sqlite/store.js';
import { backupSqlite } from '../storage/sqlite/engine/backup.js';

export const BACKUP_USAGE = `usage: weft backup FILE [--data-dir DIR] [--force] [--verify]
  Writes a consistent copy of DIR/${SQLITE_FILE} to FILE, also while the server runs: every call
  acknowledged before the backup starts is in it. FILE is one self-contained SQLite file.
  --data-dir DIR  the server's data directory (WEFT_DATA_DIR; default ./weft-data)
  --force         replace FILE if it exists (WEFT_BACKUP_FORCE=1); else an existing FILE is refused
  --verify        run PRAGMA integrity_check on the copy before it is named FILE (WEFT_BACKUP_VERIFY=1)
  Restore: stop the server, put FILE at DIR/${SQLITE_FILE}, delete DIR/${SQLITE_FILE}-wal and -shm, start it.
  Exit codes: 0 written; 1 failed (FILE untouched); 2 usage, FILE exists, or the ClickHouse engine.
`;

class BackupUsageError extends Error {}

const clickhouseRefusal = (database: string) =>
  `the ClickHouse engine keeps its data in ClickHouse, not in a data directory: back it up with ClickHouse's own BACKUP command (BACKUP DATABASE ${database} TO ...)`;

/** A switch given as a flag or as its environment variable (1/true/yes, 0/false/no). */
function flagOrEnv(flag: boolean | undefined, name: string): boolean {
  if (flag) return true;
  const raw = (process.env[name] ?? '').toLowerCase();
  if (['', '0', 'false', 'no'].includes(raw)) return false;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  throw new BackupUsageError(`${name} must be true or false, got "${process.env[name]}"`);
}

interface BackupArgs {
  readonly target: string;
  readonly dataDir: string;
  readonly engine: 'sqlite' | 'clickhouse';
  readonly clickhouseDatabase: string;
  readonly force: boolean;
  readonly verify: boolean;
}

/** Parsed arguments, or null for --help. */
function parse(argv: readonly string[]): BackupArgs | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        'data-dir': { type: 'string' },
        force: { type: 'boolean' },
        verify: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new BackupUsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return null;
  if (positionals.length !== 1 || positionals[0] === '') throw new BackupUsageError('backup needs one FILE to write');
  let config;
  try {
    // The server's own reading of --data-dir, WEFT_DATA_DIR and WEFT_ENGINE, defaults included.
    config = loadConfig(values['data-dir'] === undefined ? [] : ['--data-dir', values['data-dir']], process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new BackupUsageError(err.message);
    throw err;
  }
  return {
    target: resolve(positionals[0]!),
    dataDir: config.dataDir,
    engine: config.engine,
    clickhouseDatabase: config.clickhouseDatabase,
    force: flagOrEnv(values.force, 'WEFT_BACKUP_FORCE'),
    verify: flagOrEnv(values.verify, 'WEFT_BACKUP_VERIFY'),
  };
}

/** The database file to copy; refusals of the paths as a StartupError (exit 1) or a usage error. */
function checkPaths(args: BackupArgs): string {
  const source = join(args.dataDir, SQLITE_FILE);
  if (!existsSync(args.dataDir))
    throw new StartupError(`the data directory ${args.dataDir} does not exist: check --data-dir (or WEFT_DATA_DIR)`);
  if (!existsSync(source))
    throw new StartupError(
      `there is no Weft database in ${args.dataDir} (no ${SQLITE_FILE}): check --data-dir (or WEFT_DATA_DIR)`,
    );
  if ([source, `${source}-wal`, `${source}-shm`, `${source}-journal`].includes(args.target)) {
    throw new BackupUsageError(`FILE is the database being backed up (${args.target}): name another file`);
  }
  const dir = dirname(args.target);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new StartupError(`cannot write ${args.target}: the directory ${dir} does not exist`);
  if (existsSync(args.target) && statSync(args.target).isDirectory())
    throw new BackupUsageError(`${args.target} is a directory: name a file`);
  return source;
}

/** Aborts the backup on SIGINT or SIGTERM (the temporary file is removed); remembers which. */
function interruptible(): { signal: AbortSignal; caught: () => NodeJS.Signals | null; release: () => void } {
  const controller = new AbortController();
  let caught: NodeJS.Signals | null = null;
  const onSignal = (sig: NodeJS.Signals) => {
    caught = sig;
    controller.abort();
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    caught: () => caught,
    release: () => process.off('SIGINT', onSignal).off('SIGTERM', onSignal),
  };
}

export async function runBackup(argv: readonly string[]): Promise<number> {
  const err = process.stderr;
  let args: BackupArgs | null;
  let source: string;
  try {
    args = parse(argv);
    if (args === null) {
      process.stdout.write(BACKUP_USAGE);
      return 0;
    }
    if (args.engine === 'clickhouse') {
      err.write(`weft backup: ${clickhouseRefusal(args.clickhouseDatabase)}\n`);
      return 2;
    }
    source = checkPaths(args);
  } catch (e) {
    if (!(e instanceof BackupUsageError)) throw e;
    err.write(`weft backup: ${e.message}\n${BACKUP_USAGE}`);
    return 2;
  }
  const { target } = args;
  if (!args.force && existsSync(target)) {
    err.write(`weft backup: ${target} exists: pass --force to replace it, or name another file\n`);
    return 2;
  }
  const bar = createProgressBar(err);
  const stop = interruptible();
  let begun = false;
  let copied = 0;
  try {
    const result = await backupSqlite(source, target, {
      replace: args.force,
      verify: args.verify,
      signal: stop.signal,
      onProgress: (done, total) => {
        if (!begun) bar.begin(`${SQLITE_FILE} pages`, total);
        begun = true;
        bar.advance(done - copied);
        copied = done;
      },
    });
    bar.end();
    err.write(
      `weft backup: wrote ${target} (${(result.bytes / 2 ** 20).toFixed(1)} MiB, schema ${result.schema}${args.verify ? ', integrity_check ok' : ''}) from ${source}\n`,
    );
    return 0;
  } catch (e) {
    bar.end();
    const sig = stop.caught();
    if (sig !== null) {
      err.write(`weft backup: interrupted (${sig}); ${target} was not written\n`);
      return sig === 'SIGINT' ? 130 : 143;
    }
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      err.write(`weft backup: ${target} appeared during the backup and was kept: pass --force to replace it\n`);
      return 2;
    }
    if (e instanceof StartupError) throw e;
    const code = String((e as { code?: unknown }).code ?? 'error');
    throw new StartupError(
      `the backup to ${target} failed (${code}: ${(e as Error).message}); ${target} was not written`,
      { cause: e },
    );
  } finally {
    stop.release();
  }
}
