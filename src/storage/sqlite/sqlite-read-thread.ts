// Queries that may scan a large part of a table (counts over a whole project) run on a
// thread of their own with a read-only connection, so that a count over a million calls
// never stalls the requests the main thread is serving. One thread: queries wait their
// turn in arrival order. An in-memory database cannot be shared: then they run inline.
import type { SqliteDb } from './sqlite-database.js';
import { spawnSqliteWorker } from './sqlite-worker-spawn.js';

export interface ReadThread {
  /** Every row of the query (keep results small: they are copied between threads). */
  all<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function createReadThread(db: SqliteDb, path: string): ReadThread {
  if (path === ':memory:') {
    return { all: async (sql, params) => db.prepare(sql).all(...params) as never, close: async () => {} };
  }
  let worker: ReturnType<typeof spawnSqliteWorker> | null = null;
  const pending = new Map<number, { resolve: (rows: never[]) => void; reject: (e: Error) => void }>();
  let seq = 0;
  // Started on first use: a server that never counts never pays for the thread.
  const start = () => {
    const w = spawnSqliteWorker('sqlite-read-worker', { path });
    w.unref();
    w.on('message', ([id, ok, value]: [number, boolean, unknown]) => {
      const p = pending.get(id)!;
      pending.delete(id);
      if (pending.size === 0) w.unref();
      if (ok) p.resolve(value as never[]);
      else p.reject(new Error(value as string));
    });
    w.on('error', (err) => {
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      worker = null;
    });
    return w;
  };
  return {
    all(sql, params) {
      worker ??= start();
      const id = ++seq;
      if (pending.size === 0) worker.ref();
      worker.postMessage([id, sql, params]);
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}
