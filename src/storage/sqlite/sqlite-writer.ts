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
import { Worker } from 'node:worker_threads';
import type { SqliteDb } from './sqlite-database.js';
import { WriteQueueFullError } from '../call-store.js';
import { createGroupRunner, type JobResult, type WriteArgs, type WriteJob, type WriteName, type WriteResult } from './sqlite-write-procedures.js';

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

const settle = (r: JobResult) => (r.ok ? r.value : Promise.reject(new SqliteWriteError(r.message, r.code)));

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
  readonly job: WriteJob;
  readonly bytes: number;
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
}

/** The writer's thread: its entry next to this file, built JavaScript or, under tsx (tests, bench), TypeScript. */
function spawnWorker(path: string): Worker {
  const workerData = { path };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./sqlite-write-worker.js', import.meta.url), { workerData });
  // tsx registers its loader on the main thread only: the worker registers it for itself.
  const entry = new URL('./sqlite-write-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

/** The worker-backed writer for the database file at `path` (the inline one for ':memory:'). */
export function createSqliteWriter(db: SqliteDb, path: string): SqliteWriter {
  if (path === ':memory:') return createInlineWriter(db);
  const worker = spawnWorker(path);
  worker.unref();
  let queue: Pending[] = [];
  let inFlight: Pending[] | null = null;
  let broken: unknown = null;
  let idle: (() => void) | null = null;
  let queued = 0;
  let limitBytes = Number.POSITIVE_INFINITY;

  const send = () => {
    if (inFlight !== null || queue.length === 0) return;
    inFlight = queue;
    queue = [];
    worker.ref(); // keep the process alive while a commit is outstanding
    worker.postMessage(inFlight.map((p) => p.job));
  };

  worker.on('message', (results: JobResult[]) => {
    const done = inFlight ?? [];
    inFlight = null;
    worker.unref();
    done.forEach((p, i) => {
      queued -= p.bytes;
      const r = results[i]!;
      if (r.ok) p.resolve(r.value);
      else p.reject(new SqliteWriteError(r.message, r.code));
    });
    send();
    if (inFlight === null && queue.length === 0) idle?.();
  });
  worker.on('error', (err) => {
    broken = err;
    for (const p of [...(inFlight ?? []), ...queue]) p.reject(err);
    inFlight = null;
    queue = [];
    queued = 0;
    idle?.();
  });

  return {
    run(name, args, opts = {}) {
      if (broken) return Promise.reject(broken);
      const bytes = opts.bytes ?? 0;
      if (opts.sheddable && queued > 0 && queued + bytes > limitBytes) return Promise.reject(new WriteQueueFullError(queued, limitBytes));
      queued += bytes;
      return new Promise((resolve, reject) => {
        queue.push({ job: [name, args], bytes, resolve: resolve as (v: unknown) => void, reject });
        send();
      });
    },
    limit(bytes) {
      limitBytes = bytes;
    },
    queuedBytes: () => queued,
    async close() {
      if (inFlight !== null || queue.length > 0) await new Promise<void>((r) => (idle = r));
      await worker.terminate();
    },
  };
}
