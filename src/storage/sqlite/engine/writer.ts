// The one writer of the SQLite engine. Every write (calls, objects, tables, files, feedback,
// costs, settings, keys, deletes, retention) is a named procedure (sqlite/engine/write-procedures.ts)
// run on a worker thread that owns the only writing connection, so:
// - no write ever waits for, or fails on, SQLite's write lock: there is one writer;
// - the main thread never blocks on a commit (fsync) and keeps serving requests while the
//   worker writes (two cores instead of one);
// - jobs that arrive while a commit runs are committed together in the next transaction
//   (group commit: one fsync for many writes), each acknowledged only after its commit.
// - checkpoints (copying the WAL into the database file) run on a thread of their own, at
//   most every CHECKPOINT_INTERVAL_MS while commits arrive, not inside the writer's commits.
// The queue is bounded for jobs that may be shed (call ingestion): the bytes of jobs accepted
// but not committed are counted, and a sheddable job that would take them over the limit is
// refused (WriteQueueFullError) unless nothing is waiting, so one batch larger than the
// limit still gets through. An in-memory database cannot be shared with a thread, and the
// CLI writes once and exits: both run the same procedures inline (synchronously).
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SqliteDb } from './database.js';
import { WriteQueueFullError } from '../../calls/call-store.js';
import { spawnSqliteWorker, stopSqliteWorker } from './worker-spawn.js';
import type { StoreHealth } from '../../store.js';
import { faultKind, sqliteFault } from './faults.js';
import { createCommitListeners } from '../../engine/commit-listeners.js';
import {
  createGroupRunner,
  IDLE_WORK,
  type JobResult,
  type WriteArgs,
  type WriteJob,
  type WriteName,
  type WriteResult,
} from './write-procedures.js';

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
  /** Degraded while the last write failed for want of space; ok again after a write commits. */
  health(): StoreHealth;
  /** Tells `listener` the seconds each group transaction took (StoreStats.onCommit). */
  onCommit(listener: (seconds: number) => void): () => void;
  /** Waits for every accepted job, then stops the writer. */
  close(): Promise<void>;
}

/** A failed write, with SQLite's error code when it has one (SQLITE_FULL, SQLITE_BUSY...). */
export class SqliteWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'SqliteWriteError';
  }
}

/**
 * The error a failed job is answered with: a storage fault as its typed error (sqlite/engine/faults.ts:
 * a full disk is a 507, a database another process keeps locked or a failing file a 503),
 * anything else as it came.
 */
const jobError = (r: Extract<JobResult, { ok: false }>, path: string): Error =>
  sqliteFault(r.code, r.message, path) ?? new SqliteWriteError(r.message, r.code);

/** How often, at most, the checkpointer copies committed WAL frames into the database file. */
const CHECKPOINT_INTERVAL_MS = 250;

/** Free space below which a disk that has been full still counts as full. */
const FREE_AGAIN_BYTES = 16 * 1024 * 1024;

/** Bytes free for this process on the filesystem holding `path`, or null when unknown. */
function freeBytes(path: string): number | null {
  try {
    const s = statfsSync(dirname(path));
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/**
 * Tracks whether writes fail for want of space: the store's health. A write failing with a
 * full disk starts a degraded spell; it ends once the filesystem has FREE_AGAIN_BYTES free
 * again (small writes may still squeeze into space SQLite holds while big ones fail, so one
 * success does not end it), or, where free space cannot be read, at the next successful write.
 */
function createFullDiskWatch(path: string) {
  let since: string | null = null;
  let reason = '';
  return {
    saw(r: JobResult) {
      if (!r.ok && faultKind(r.code) === 'full') {
        since ??= new Date().toISOString();
        reason = `writes fail: the disk holding ${path} is full (${r.message})`;
      } else if (r.ok && since !== null && freeBytes(path) === null) {
        since = null;
      }
    },
    health(): StoreHealth {
      if (since !== null && (freeBytes(path) ?? 0) >= FREE_AGAIN_BYTES) since = null;
      return since === null ? { status: 'ok' } : { status: 'degraded', reason, since };
    },
  };
}

/**
 * Runs each job at once on `db`, in its own transaction (or a savepoint of the caller's), and
 * the deferred work it feeds (IDLE_WORK) right after it: nothing is left for later.
 */
export function createInlineWriter(db: SqliteDb): SqliteWriter {
  const runGroup = createGroupRunner(db);
  const watch = createFullDiskWatch(db.name);
  const commits = createCommitListeners();
  /** Deferred work until none is left (or a chunk fails: the next feeding job tries again). */
  const drainDeferred = () => {
    for (;;) {
      const [r] = runGroup([IDLE_WORK.job]);
      if (!r!.ok || (r!.value as number) === 0) return;
    }
  };
  return {
    run(name, args) {
      const began = performance.now();
      const [result] = runGroup([[name, args]]);
      if (result!.ok && IDLE_WORK.fedBy.has(name)) drainDeferred();
      commits.emit((performance.now() - began) / 1000);
      watch.saw(result!);
      return (
        result!.ok ? Promise.resolve(result!.value) : Promise.reject(jobError(result!, db.name))
      ) as Promise<never>;
    },
    limit() {},
    queuedBytes: () => 0,
    health: watch.health,
    onCommit: commits.add,
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
  const worker = spawnSqliteWorker('write-worker', { path });
  worker.unref();
  const checkpointer = spawnSqliteWorker('checkpoint-worker', { path, intervalMs: CHECKPOINT_INTERVAL_MS });
  checkpointer.unref();
  // Without it the writer's own checkpoints still bound the WAL: its failure is not a write's.
  checkpointer.on('error', () => {});
  // Each job is posted as soon as it is accepted (its arguments cloned then, a little at a
  // time, not a whole group at once); the worker groups what arrived while it committed.
  const pending = new Map<number, Pending>();
  let seq = 0;
  let broken: unknown = null;
  let idle: (() => void) | null = null;
  let queued = 0;
  let limitBytes = Number.POSITIVE_INFINITY;
  const watch = createFullDiskWatch(path);
  const commits = createCommitListeners();

  worker.on('message', ([done, seconds]: [[number, JobResult][], number]) => {
    commits.emit(seconds);
    checkpointer.postMessage(0);
    for (const [id, r] of done) {
      const p = pending.get(id)!;
      pending.delete(id);
      queued -= p.bytes;
      watch.saw(r);
      if (r.ok) p.resolve(r.value);
      else p.reject(jobError(r, path));
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
      if (opts.sheddable && queued > 0 && queued + bytes > limitBytes)
        return Promise.reject(new WriteQueueFullError(queued, limitBytes));
      const id = ++seq;
      const job: WriteJob = [name, args];
      worker.postMessage([id, job]);
      if (pending.size === 0) worker.ref(); // keep the process alive while a commit is outstanding
      queued += bytes;
      return new Promise((resolve, reject) =>
        pending.set(id, { bytes, resolve: resolve as (v: unknown) => void, reject }),
      );
    },
    limit(bytes) {
      limitBytes = bytes;
    },
    queuedBytes: () => queued,
    health: watch.health,
    onCommit: commits.add,
    async close() {
      if (pending.size > 0) await new Promise<void>((r) => (idle = r));
      await Promise.all([stopSqliteWorker(worker), stopSqliteWorker(checkpointer)]);
    },
  };
}
