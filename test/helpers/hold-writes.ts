// Makes a test app's engine hold its writes: SQLite, another connection keeps the write lock;
// ClickHouse, the server does not answer writes. Writes wait (within SQLite's busy timeout)
// until the returned function is called; calling it again does nothing.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { clickhouseGate } from './clickhouse-engine.js';
import type { TestApp } from './test-app.js';

export function holdWrites(t: TestApp): () => void {
  const gate = clickhouseGate(t.store);
  if (gate !== null) return gate.holdWrites();
  const blocker = new Database(join(t.dataDir, 'weft.sqlite'));
  blocker.pragma('busy_timeout = 5000');
  blocker.exec('BEGIN IMMEDIATE');
  return () => {
    if (blocker.inTransaction) blocker.exec('COMMIT');
    if (blocker.open) blocker.close();
  };
}
