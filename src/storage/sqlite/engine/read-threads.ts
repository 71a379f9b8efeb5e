// Reads that may scan many rows run on reader threads with read-only connections
// (sqlite/engine/read-worker.ts), never on the main thread: a count over a million calls or a sort
// on an input field keeps a reader busy for seconds while every other request is served.
// Streams are pulled a chunk at a time (the next chunk is fetched while the consumer works
// on the current one), so memory stays bounded and a slow client slows only its own stream.
// Queries go to the least busy of the threads, which start on first use. An in-memory
// database cannot be shared with a thread: then the same calls run on its one connection.
import type Database from 'better-sqlite3';
import type { SqliteDb } from './database.js';
import { spawnSqliteWorker, stopSqliteWorker } from './worker-spawn.js';

export interface ReadOptions {
  /** Rows as arrays of column values instead of objects. */
  readonly raw?: boolean;
}

export interface ReadThreads {
  /** Every row of the query (for small answers: they are copied between threads). */
  all<T>(sql: string, params: readonly unknown[], opts?: ReadOptions): Promise<T[]>;
  /** The rows in chunks of at most `chunk`; stopping early (return / break) ends the query. */
  stream<T>(sql: string, params: readonly unknown[], chunk: number, opts?: ReadOptions): AsyncGenerator<T[]>;
  close(): Promise<void>;
}

type Answer = [ok: true, rows: unknown[], done: boolean] | [ok: false, message: string, code?: string | null];

/** An error of the reader thread, with SQLite's code kept (storage faults are classified by it). */
function readError(message: string, code: string | null | undefined): Error {
  return Object.assign(new Error(message), { code: code ?? undefined });
}

interface Thread {
  readonly worker: ReturnType<typeof spawnSqliteWorker>;
  readonly pending: Map<number, (a: Answer) => void>;
  /** Requests in flight plus open streams: the measure of how busy it is. */
  load: number;
}

export function createReadThreads(db: SqliteDb, path: string, size = 2): ReadThreads {
  if (path === ':memory:') return inlineReads(db);
  const threads: Thread[] = [];
  let seq = 0;

  function start(): Thread {
    const worker = spawnSqliteWorker('read-worker', { path });
    worker.unref();
    const t: Thread = { worker, pending: new Map(), load: 0 };
    worker.on('message', ([id, ...answer]: [number, ...Answer]) => {
      const settle = t.pending.get(id);
      t.pending.delete(id);
      if (t.pending.size === 0) worker.unref();
      settle?.(answer as Answer);
    });
    worker.on('error', (err) => {
      for (const settle of t.pending.values()) settle([false, String(err)]);
      t.pending.clear();
      threads.splice(threads.indexOf(t), 1);
    });
    threads.push(t);
    return t;
  }

  const pick = (): Thread => {
    const free = threads.reduce<Thread | undefined>(
      (best, t) => (best === undefined || t.load < best.load ? t : best),
      undefined,
    );
    return free !== undefined && (free.load === 0 || threads.length >= size) ? free : start();
  };

  function ask(t: Thread, id: number, msg: unknown[]): Promise<[unknown[], boolean]> {
    if (t.pending.size === 0) t.worker.ref();
    t.worker.postMessage(msg);
    return new Promise((resolve, reject) => {
      t.pending.set(id, (a) => (a[0] ? resolve([a[1], a[2]]) : reject(readError(a[1], a[2]))));
    });
  }

  return {
    async all<T>(sql: string, params: readonly unknown[], opts: ReadOptions = {}) {
      const t = pick();
      const id = ++seq;
      t.load++;
      try {
        return (await ask(t, id, ['all', id, sql, params, opts.raw === true]))[0] as T[];
      } finally {
        t.load--;
      }
    },
    async *stream<T>(sql: string, params: readonly unknown[], chunk: number, opts: ReadOptions = {}) {
      const t = pick();
      const id = ++seq;
      t.load++;
      let done = false;
      let next = ask(t, id, ['open', id, sql, params, opts.raw === true, chunk]);
      try {
        while (!done) {
          const [rows, last] = await next;
          done = last;
          if (!done) next = ask(t, id, ['next', id]); // fetched while the consumer works
          if (rows.length > 0) yield rows as T[];
        }
      } finally {
        t.load--;
        if (!done) {
          next.catch(() => undefined); // a chunk nobody will read
          t.worker.postMessage(['close', id]);
        }
      }
    },
    async close() {
      await Promise.all(threads.splice(0).map((t) => stopSqliteWorker(t.worker)));
    },
  };
}

/** The same calls on the one connection of an in-memory database, yielding between chunks. */
function inlineReads(db: SqliteDb): ReadThreads {
  const prepare = (sql: string, raw: boolean): Database.Statement => {
    const s = db.prepare(sql);
    return raw ? s.raw(true) : s;
  };
  return {
    all: async (sql, params, opts = {}) => prepare(sql, opts.raw === true).all(...params) as never[],
    async *stream<T>(sql: string, params: readonly unknown[], chunk: number, opts: ReadOptions = {}) {
      // Read whole before yielding: the connection can run nothing else while it iterates.
      const rows = prepare(sql, opts.raw === true).all(...params) as T[];
      for (let i = 0; i < rows.length; i += chunk) {
        yield rows.slice(i, i + chunk);
        await new Promise((r) => setImmediate(r));
      }
    },
    close: async () => {},
  };
}
