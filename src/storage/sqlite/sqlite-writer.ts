// The one writer of the SQLite engine. Every write (calls, objects, tables, files, feedback,
// costs, settings, keys, deletes, retention) is a named procedure (sqlite-write-procedures.ts)
// run on a worker thread that owns the only writing connection, so:
// - no write ever waits for, or fails on, SQLite's write lock: there is one writer;
// - the main thread never blocks on a commit (fsync) and keeps serving requests while the
//   worker writes (two cores instead of one);
// - jobs that arrive while a commit runs are committed together in the next transaction
//   (group commit: one fsync for many writes), each acknowledged only after its commit.
// The queue is bounded for jobs that may be shed (call ingestion): the bytes of jobs accepted
// but not committed are counted, and a sheddable job that would take them over the limit is
// refused (WriteQueueFullError) unless nothing is waiting, so one batch larger than the
// limit still gets through. An in-memory database cannot be shared with a thread, and the
// CLI writes once and exits: both run the same procedures inline (synchronously).
import type { SqliteDb } from './sqlite-database.js';
import { WriteQueueFullError } from '../call-store.js';
import { spawnSqliteWorker } from './sqlite-worker-spawn.js';
import { ServiceUnavailableError } from '../../api/errors.js';
import { createGroupRunner, isLockedCode, type JobResult, type WriteArgs, type WriteJob, type WriteName, type WriteResult } from './sqlite-write-procedures.js';

export interface WriteOptions {
  /** Approximate bytes the job holds while queued (counted against the bound). */
  readonly bytes?: number;
  /** May be refused with WriteQueueFullError when the queue is over its bound. */
  readonly sheddable?: boolean;
}

export interface SqliteWriter {
  run<K extends WriteName>(name: K, args: WriteArgs<K>, opts?: WriteOptions): Promise<WriteResult<K>>;
  /** Sets the bound on bytes waiting to be written (default: none). */
  limit(bytes: number): void;
  /** Bytes of jobs accepted but not yet committed. */
  queuedBytes(): number;
  /** Waits for every accepted job, then stops the writer. */
  close(): Promise<void>;
}

/** A failed write, with SQLite's error code when it has one (SQLITE_FULL, SQLITE_BUSY...). */
export class SqliteWriteError extends Error {
  constructor(message: string, readonly code: string | null) {
    super(message);
    this.name = 'SqliteWriteError';
  }
}

/**
 * The error a failed job is answered with. The writer is the database's only writer in this
 * process, so a busy or locked database means another process (the CLI, a backup) holds it
 * past the busy timeout: the client should retry (503), it did nothing wrong.
 */
function jobError(r: Extract<JobResult, { ok: false }>): Error {
  if (isLockedCode(r.code)) {
    return new ServiceUnavailableError('The database is locked by another process; retry shortly', 1);
  }
  return new SqliteWriteError(r.message, r.code);
}

const settle = (r: JobResult) => (r.ok ? r.value : Promise.reject(jobError(r)));

/** Runs each job at once on `db`, in its own transaction (or a savepoint of the caller's). */
export function createInlineWriter(db: SqliteDb): SqliteWriter {
  const runGroup = createGroupRunner(db);
  return {
    run(name, args) {
      const [result] = runGroup([[name, args]]);
      return Promise.resolve(settle(result!)) as Promise<never>;
    },
    limit() {},
    queuedBytes: () => 0,
    async close() {},
  };
}

interface Pending {
  readonly bytes: number;
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
}

/** The worker-backed writer for the database file at `path` (the inline one for ':memory:'). */
export function createSqliteWriter(db: SqliteDb, path: string): SqliteWriter {
  if (path === ':memory:') return createInlineWriter(db);
  const worker = spawnSqliteWorker('sqlite-write-worker', { path });
  worker.unref();
  // Each job is posted as soon as it is accepted (its arguments cloned then, a little at a
  // time, not a whole group at once); the worker groups what arrived while it committed.
  const pending = new Map<number, Pending>();
  let seq = 0;
  let broken: unknown = null;
  let idle: (() => void) | null = null;
  let queued = 0;
  let limitBytes = Number.POSITIVE_INFINITY;

  worker.on('message', (done: [number, JobResult][]) => {
    for (const [id, r] of done) {
      const p = pending.get(id)!;
      pending.delete(id);
      queued -= p.bytes;
      if (r.ok) p.resolve(r.value);
      else p.reject(jobError(r));
    }
    if (pending.size === 0) {
      worker.unref();
      idle?.();
    }
  });
  worker.on('error', (err) => {
    broken = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    queued = 0;
    idle?.();
  });

  return {
    run(name, args, opts = {}) {
      if (broken) return Promise.reject(broken);
      const bytes = opts.bytes ?? 0;
      if (opts.sheddable && queued > 0 && queued + bytes > limitBytes) return Promise.reject(new WriteQueueFullError(queued, limitBytes));
      const id = ++seq;
      const job: WriteJob = [name, args];
      worker.postMessage([id, job]);
      if (pending.size === 0) worker.ref(); // keep the process alive while a commit is outstanding
      queued += bytes;
      return new Promise((resolve, reject) => pending.set(id, { bytes, resolve: resolve as (v: unknown) => void, reject }));
    },
    limit(bytes) {
      limitBytes = bytes;
    },
    queuedBytes: () => queued,
    async close() {
      if (pending.size > 0) await new Promise<void>((r) => (idle = r));
      await worker.terminate();
    },
  };
}
