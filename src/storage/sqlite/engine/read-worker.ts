// A reader thread (see sqlite/engine/read-threads.ts): read-only connections that run the queries
// which may scan many rows, so that the main thread keeps serving requests meanwhile.
// Messages: ['all', id, sql, params, raw] -> every row; ['open', id, sql, params, raw, chunk]
// -> the first chunk of a stream; ['next', id] -> its next chunk; ['close', id] -> ends it.
// Each open stream holds a connection of its own (a connection iterating a statement can run
// nothing else); answers are [id, true, rows, done] or [id, false, message, SQLite code].
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { markWorkerReady } from './worker-ready.js';

type Conn = Database.Database;
const path = (workerData as { path: string }).path;
const MAX_IDLE = 4;
const MAX_STATEMENTS = 128;
const idle: Conn[] = [];
const statements = new WeakMap<Conn, Map<string, Database.Statement>>();
const streams = new Map<number, { conn: Conn; it: IterableIterator<unknown>; chunk: number }>();

function connection(): Conn {
  const c = idle.pop() ?? new Database(path, { readonly: true, fileMustExist: true });
  c.pragma('busy_timeout = 5000');
  return c;
}

function release(c: Conn): void {
  if (idle.length < MAX_IDLE) idle.push(c);
  else c.close();
}

// The addon is loaded with the first connection: opened now, so the thread may be stopped
// safely from here on (worker-spawn.ts).
release(connection());
markWorkerReady();

function statement(c: Conn, sql: string, raw: boolean): Database.Statement {
  let cache = statements.get(c);
  if (!cache) statements.set(c, (cache = new Map()));
  const key = `${raw ? 'r' : 'o'}${sql}`;
  let s = cache.get(key);
  if (!s) {
    if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value!);
    s = c.prepare(sql);
    if (raw) s.raw(true);
    cache.set(key, s);
  }
  return s;
}

function take(id: number): [unknown[], boolean] {
  const s = streams.get(id)!;
  const rows: unknown[] = [];
  let done = false;
  while (rows.length < s.chunk) {
    const r = s.it.next();
    if (r.done) {
      done = true;
      break;
    }
    rows.push(r.value);
  }
  if (done) end(id);
  return [rows, done];
}

function end(id: number): void {
  const s = streams.get(id);
  if (!s) return;
  streams.delete(id);
  s.it.return?.();
  release(s.conn);
}

let shared: Conn | null = null;
parentPort!.on('message', (msg: [string, number, ...unknown[]]) => {
  const [kind, id] = msg;
  try {
    switch (kind) {
      case 'all': {
        const [, , sql, params, raw] = msg as [string, number, string, unknown[], boolean];
        shared ??= connection();
        parentPort!.postMessage([id, true, statement(shared, sql, raw).all(...params), true]);
        return;
      }
      case 'open': {
        const [, , sql, params, raw, chunk] = msg as [string, number, string, unknown[], boolean, number];
        const conn = connection();
        try {
          streams.set(id, { conn, it: statement(conn, sql, raw).iterate(...params), chunk });
        } catch (e) {
          release(conn);
          throw e;
        }
        parentPort!.postMessage([id, true, ...take(id)]);
        return;
      }
      case 'next':
        parentPort!.postMessage([id, true, ...take(id)]);
        return;
      case 'close':
        end(id);
        return;
    }
  } catch (e) {
    end(id);
    parentPort!.postMessage([
      id,
      false,
      e instanceof Error ? e.message : String(e),
      (e as { code?: unknown })?.code ?? null,
    ]);
  }
});
