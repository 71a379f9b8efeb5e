// Opens the SQLite file with the settings every store relies on, and runs migrations.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDb = Database.Database;

/** One migration: applied once, in order, tracked by PRAGMA user_version. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** A connection with the settings every connection that writes relies on (no migrations). */
export function openSqliteConnection(path: string): SqliteDb {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode is durable against process crashes; FULL adds power-loss safety.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Told before migrations run on a database that already has a schema (an upgrade can take a while). */
export type OnUpgrade = (from: number, to: number) => void;

export function openSqlite(path: string, migrations: readonly Migration[], onUpgrade?: OnUpgrade): SqliteDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = openSqliteConnection(path);
  migrate(db, migrations, onUpgrade);
  // Gathers the statistics the planner needs to pick the trace / parent indexes, cheaply
  // (SQLite's recommended call on open; it only analyzes tables that need it).
  db.pragma('optimize = 0x10002');
  return db;
}

function migrate(db: SqliteDb, migrations: readonly Migration[], onUpgrade?: OnUpgrade): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const pending = [...migrations].filter((m) => m.version > current).sort((a, b) => a.version - b.version);
  if (current > 0 && pending.length > 0) onUpgrade?.(current, pending[pending.length - 1]!.version);
  for (const m of pending) {
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${Number(m.version)}`);
    })();
  }
}
