// Read-only connections for long-running streams. A better-sqlite3 connection that is
// iterating a statement cannot run anything else, so every open stream takes a reader of
// its own; WAL gives each one a consistent snapshot while writers go on.
import Database from 'better-sqlite3';
import type { SqliteDb } from './sqlite-database.js';

export interface ReaderPool {
  acquire(): SqliteDb;
  release(db: SqliteDb): void;
  /** A prepared statement of `db`, cached by its SQL text (query shapes repeat). */
  prepare(db: SqliteDb, sql: string): Database.Statement;
  close(): void;
}

const MAX_STATEMENTS = 256;

const MAX_IDLE = 4;

export function createReaderPool(path: string, main: SqliteDb): ReaderPool {
  const idle: SqliteDb[] = [];
  const all = new Set<SqliteDb>();
  const statements = new WeakMap<SqliteDb, Map<string, Database.Statement>>();
  // An in-memory database is private to its connection: streams share the main one.
  const inMemory = path === ':memory:';
  return {
    acquire() {
      if (inMemory) return main;
      let db = idle.pop();
      if (!db) {
        db = new Database(path, { readonly: true, fileMustExist: true });
        db.pragma('busy_timeout = 5000');
      }
      all.add(db);
      return db;
    },
    release(db) {
      if (db === main) return;
      if (idle.length < MAX_IDLE) idle.push(db);
      else {
        all.delete(db);
        db.close();
      }
    },
    prepare(db, sql) {
      let cache = statements.get(db);
      if (!cache) statements.set(db, (cache = new Map()));
      let stmt = cache.get(sql);
      if (stmt) {
        // Re-insert: the Map's order then tracks recency, so eviction drops the oldest use.
        cache.delete(sql);
      } else {
        stmt = db.prepare(sql);
        if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
    close() {
      for (const db of all) if (db.open) db.close();
      all.clear();
      idle.length = 0;
    },
  };
}
