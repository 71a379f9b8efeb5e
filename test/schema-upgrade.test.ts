// Opening a database written by the previous schema: the server says it is upgrading (a
// large database takes a while), migrates, and serves the data it held. Migration 7 drops
// the stored default prices (they come from a catalogue now) and keeps project prices.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite } from '../src/storage/sqlite/sqlite-database.js';
import { SQLITE_MIGRATIONS } from '../src/storage/sqlite/sqlite-migrations.js';
import { serve, tempDirs } from './helpers/weft-process.js';

const dirs = tempDirs('weft-upgrade-');
after(() => dirs.removeAll());

test('a schema-4 database is upgraded at startup, with a message, and keeps its calls', async () => {
  const dir = dirs.make();
  const file = join(dir, 'weft.sqlite');
  const old = openSqlite(file, SQLITE_MIGRATIONS.filter((m) => m.version <= 4));
  old.prepare(`INSERT INTO calls (project_id, id, trace_id, op_name, started_at, attributes, inputs) VALUES ('e/p', 'c1', 't1', 'op', 1, '{}', '{}')`).run();
  const price = old.prepare(`INSERT INTO llm_token_prices VALUES (?, ?, ?, 'p', 'gpt-4o', 0, 1, 2, 'USD', 'USD', 'u', 0)`);
  price.run('old-default', 'default', 'default');
  price.run('mine', 'project', 'e/p');
  old.close();
  const latest = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]!.version;
  const s = await serve(['--data-dir', dir]);
  try {
    assert.ok(s.port, s.stderr);
    assert.match(s.stderr, new RegExp(`upgrading the database in .* from schema 4 to ${latest}`));
    const r = await fetch(`http://127.0.0.1:${s.port}/calls/query_stats`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"project_id":"e/p"}' });
    assert.deepEqual(await r.json(), { count: 1, total_storage_size_bytes: null });
  } finally {
    s.stop();
  }
  const db = new Database(file, { readonly: true });
  try {
    assert.equal(db.pragma('user_version', { simple: true }), latest);
    assert.deepEqual(db.prepare('SELECT id FROM llm_token_prices').all(), [{ id: 'mine' }]);
    const columns = (db.prepare('PRAGMA index_info(calls_parent)').all() as { name: string }[]).map((c) => c.name);
    assert.deepEqual(columns, ['project_id', 'parent_id', 'started_at', 'id', 'deleted_at', 'expire_at']);
  } finally {
    db.close();
  }
});

test('a new database is created without the upgrade message', async () => {
  const s = await serve(['--data-dir', dirs.make()]);
  try {
    assert.ok(s.port, s.stderr);
    assert.doesNotMatch(s.stderr, /upgrading/);
  } finally {
    s.stop();
  }
});
