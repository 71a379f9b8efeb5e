// A consistent copy of a Weft database that a server may be writing (`weft backup`).
// SQLite's online backup copies the pages from ONE read snapshot: this connection holds a read
// transaction for the whole copy. Without it the backup starts over each time another process
// writes, which under steady ingest means it never ends; with it the server's writes go on
// (in WAL mode a writer never waits for a reader) and the copy holds exactly what was committed
// when the snapshot was taken, -wal content included. The WAL cannot be checkpointed past that
// snapshot meanwhile, so it grows during a long backup and is reused after.
// The pages go to a temporary file beside the target, which is then made a one-file database
// (rollback journal: no -wal or -shm beside it), optionally checked, synced and only then given
// the target's name: a failed or interrupted backup leaves the target as it was.
// Nothing else in the data directory is needed for a restore: file contents are chunks inside
// the database (sqlite/files/file-schema.ts), keys and users are tables in it.
import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StartupError } from '../../../startup-error.js';
import type { SqliteDb } from './database.js';

export interface SqliteBackupOptions {
  /** Replace an existing target (else EEXIST, even when the target appears during the copy). */
  readonly replace?: boolean;
  /** Run PRAGMA integrity_check on the copy before it gets the target's name. */
  readonly verify?: boolean;
  /** Told after each step: pages copied so far, pages in the snapshot. */
  readonly onProgress?: (copied: number, total: number) => void;
  /** Aborting stops the copy at its next step and removes the temporary file. */
  readonly signal?: AbortSignal;
}

export interface SqliteBackupResult {
  readonly bytes: number;
  /** The copy's schema version (PRAGMA user_version). */
  readonly schema: number;
}

/** Pages per step (4 MiB of 4 KiB pages): few event-loop turns, and an abort is seen soon. */
const PAGES_PER_STEP = 1024;
/** SQLite's files beside a database file. */
const SIDE_FILES = ['-journal', '-wal', '-shm'];

function removeWithSideFiles(path: string): void {
  for (const suffix of ['', ...SIDE_FILES]) rmSync(path + suffix, { force: true });
}

/** The source, read-only; refused (StartupError) when it is not a Weft database. */
function openSource(source: string): SqliteDb {
  let db: SqliteDb | null = null;
  try {
    db = new Database(source, { readonly: true, fileMustExist: true });
    // Waits out a checkpoint or a recovery of the server's instead of failing at once.
    db.pragma('busy_timeout = 5000');
    const schema = db.pragma('user_version', { simple: true }) as number;
    const calls = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'calls'").get();
    if (schema === 0 || calls === undefined)
      throw new StartupError(`${source} is not a Weft database (no schema version or calls table)`);
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof StartupError) throw err;
    const code = String((err as { code?: unknown }).code ?? 'error');
    throw new StartupError(`cannot read ${source} (${code}: ${(err as Error).message})`, { cause: err });
  }
}

/** Copies the snapshot's pages into `temp`; returns the page count and schema version. */
async function copyPages(
  source: string,
  temp: string,
  opts: SqliteBackupOptions,
): Promise<{ pages: number; pageSize: number; schema: number }> {
  const db = openSource(source);
  try {
    db.exec('BEGIN');
    // A deferred BEGIN takes its snapshot at the first read: this one.
    const schema = db.pragma('user_version', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const { totalPages } = await db.backup(temp, {
      progress: ({ totalPages: total, remainingPages }) => {
        opts.signal?.throwIfAborted();
        opts.onProgress?.(total - remainingPages, total);
        return PAGES_PER_STEP;
      },
    });
    opts.onProgress?.(totalPages, totalPages);
    db.exec('COMMIT');
    return { pages: totalPages, pageSize, schema };
  } finally {
    db.close();
  }
}

/** Makes `temp` a one-file database (the pages say WAL, as the source's do), checks it, syncs it. */
function finish(temp: string, verify: boolean): void {
  const db = new Database(temp, { fileMustExist: true });
  try {
    const mode = db.pragma('journal_mode = DELETE', { simple: true });
    if (mode !== 'delete') throw new Error(`the copy stayed in journal mode ${String(mode)}`);
    if (verify) {
      const check = db.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy failed PRAGMA integrity_check: ${String(check)}`);
    }
  } finally {
    db.close();
  }
  syncPath(temp);
}

function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** An error as fs raises it, for a target that exists and may not be replaced. */
function targetExists(target: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EEXIST: ${target} exists`), { code: 'EEXIST', path: target });
}

/**
 * Gives `temp` the target's name. Without `replace` a hard link does it, which fails on a
 * target that appeared during the copy instead of overwriting it (a rename where the file
 * system has no hard links).
 */
function publish(temp: string, target: string, replace: boolean): void {
  if (!replace && existsSync(target)) throw targetExists(target);
  // Stale side files under the target's name would be read as its journal.
  for (const suffix of SIDE_FILES) rmSync(target + suffix, { force: true });
  if (replace) renameSync(temp, target);
  else {
    try {
      linkSync(temp, target);
    } catch (err) {
      if (!['EPERM', 'ENOTSUP', 'ENOSYS'].includes(String((err as NodeJS.ErrnoException).code))) throw err;
      renameSync(temp, target);
    }
  }
  try {
    syncPath(dirname(target));
  } catch {
    // Some platforms cannot open a directory to sync it; the new name is there all the same.
  }
}

/** Writes a consistent copy of the database at `source` to `target` (see the file's head). */
export async function backupSqlite(
  source: string,
  target: string,
  opts: SqliteBackupOptions = {},
): Promise<SqliteBackupResult> {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  removeWithSideFiles(temp);
  try {
    const { pages, pageSize, schema } = await copyPages(source, temp, opts);
    finish(temp, opts.verify ?? false);
    opts.signal?.throwIfAborted();
    publish(temp, target, opts.replace ?? false);
    return { bytes: pages * pageSize, schema };
  } finally {
    removeWithSideFiles(temp);
  }
}
