// The reader thread (see sqlite-read-thread.ts): a read-only connection that runs queries
// which may scan many rows (counts), so that the main thread keeps serving requests meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database((workerData as { path: string }).path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map<string, Database.Statement>();
const MAX_STATEMENTS = 128;

function statement(sql: string): Database.Statement {
  let s = statements.get(sql);
  if (!s) {
    if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
    s = db.prepare(sql);
    statements.set(sql, s);
  }
  return s;
}

parentPort!.on('message', ([id, sql, params]: [number, string, unknown[]]) => {
  try {
    parentPort!.postMessage([id, true, statement(sql).all(...params)]);
  } catch (e) {
    parentPort!.postMessage([id, false, e instanceof Error ? e.message : String(e)]);
  }
});
