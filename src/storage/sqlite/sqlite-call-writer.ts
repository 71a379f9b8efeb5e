// Writes call rows on a worker thread with its own connection to the same file, so the
// main thread parses and validates the next batches while SQLite commits (two cores
// instead of one). Batches that arrive while a commit runs are committed together in the
// next transaction (group commit); each is acknowledged only after its commit. An
// in-memory database cannot be shared with a thread: then the rows are written inline.
// The queue is bounded: the bytes of rows accepted but not committed are counted, and a
// write that would take them over the limit is refused (WriteQueueFullError) unless
// nothing is waiting (so one batch larger than the limit still gets through).
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type { SqliteDb } from './sqlite-database.js';
import { WriteQueueFullError } from '../call-store.js';

/** A row for one of the writer's statements: [statement index, named parameters]. */
export type WriteRow = readonly [number, Record<string, unknown>];

export interface CallWriter {
  write(rows: readonly WriteRow[]): Promise<void>;
  /** Sets the bound on bytes waiting to be written (default: none). */
  limit(bytes: number): void;
  /** Bytes of rows accepted but not yet committed. */
  queuedBytes(): number;
  close(): Promise<void>;
}

/** Approximate in-memory size of rows: UTF-8 bytes of strings, 8 per other value. */
export function rowsBytes(rows: readonly WriteRow[]): number {
  let n = 0;
  for (const [, params] of rows) {
    for (const v of Object.values(params)) n += typeof v === 'string' ? Buffer.byteLength(v) : 8;
  }
  return n;
}

// Plain JavaScript: it runs in the worker as is (no TypeScript loader there).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const statements = workerData.statements.map((sql) => db.prepare(sql));
const writeAll = db.transaction((rows) => { for (const [i, params] of rows) statements[i].run(params); });
parentPort.on('message', ({ seq, groups }) => {
  try {
    writeAll(groups.flat());
    parentPort.postMessage({ seq, failed: [] });
  } catch (groupError) {
    // One bad batch must not fail the others committed with it: retry each alone.
    const failed = [];
    groups.forEach((rows, i) => {
      try { writeAll(rows); } catch (e) { failed.push([i, String((e && e.message) || e)]); }
    });
    parentPort.postMessage({ seq, failed });
  }
});
`;

interface Pending {
  rows: readonly WriteRow[];
  bytes: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

function inlineWriter(db: SqliteDb, statements: readonly string[]): CallWriter {
  const prepared = statements.map((sql) => db.prepare(sql));
  const writeAll = db.transaction((rows: readonly WriteRow[]) => {
    for (const [i, params] of rows) prepared[i]!.run(params);
  });
  return {
    async write(rows) {
      writeAll(rows);
    },
    limit() {},
    queuedBytes: () => 0,
    async close() {},
  };
}

export function createCallWriter(db: SqliteDb, path: string, statements: readonly string[]): CallWriter {
  if (path === ':memory:') return inlineWriter(db, statements);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path, statements } });
  worker.unref();
  let queue: Pending[] = [];
  let inFlight: Pending[] | null = null;
  let seq = 0;
  let broken: unknown = null;
  let idle: (() => void) | null = null;
  let queued = 0;
  let limitBytes = Number.POSITIVE_INFINITY;

  const send = () => {
    if (inFlight !== null || queue.length === 0) return;
    inFlight = queue;
    queue = [];
    worker.ref(); // keep the process alive while a commit is outstanding
    worker.postMessage({ seq: ++seq, groups: inFlight.map((p) => p.rows) });
  };

  worker.on('message', ({ failed }: { seq: number; failed: [number, string][] }) => {
    const done = inFlight ?? [];
    inFlight = null;
    worker.unref();
    const failures = new Map(failed);
    for (const p of done) queued -= p.bytes;
    done.forEach((p, i) => (failures.has(i) ? p.reject(new Error(failures.get(i))) : p.resolve()));
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
    write(rows) {
      if (broken) return Promise.reject(broken);
      const bytes = rowsBytes(rows);
      if (queued > 0 && queued + bytes > limitBytes) return Promise.reject(new WriteQueueFullError(queued, limitBytes));
      queued += bytes;
      return new Promise<void>((resolve, reject) => {
        queue.push({ rows, bytes, resolve, reject });
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
