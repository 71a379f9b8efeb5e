// The call writer on a real SQLite file: acknowledged writes are committed and visible to
// other connections; a failing batch committed in a group fails alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from './sqlite-database.js';
import { createCallWriter } from './sqlite-call-writer.js';

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'weft-writer-'));
  const path = join(dir, 'w.sqlite');
  const db = openSqlite(path, [{ version: 1, sql: 'CREATE TABLE t (x INTEGER NOT NULL)' }]);
  const writer = createCallWriter(db, path, ['INSERT INTO t (x) VALUES (@x)']);
  const values = () => (db.prepare('SELECT x FROM t ORDER BY x').pluck().all() as number[]);
  return { writer, values, async close() { await writer.close(); db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

test('an acknowledged write is committed and visible to another connection', async () => {
  const f = fixture();
  try {
    await f.writer.write([[0, { x: 1 }], [0, { x: 2 }]]);
    assert.deepEqual(f.values(), [1, 2]);
  } finally {
    await f.close();
  }
});

test('batches written together: a failing one is rejected alone, the others commit', async () => {
  const f = fixture();
  try {
    const results = await Promise.allSettled([
      f.writer.write([[0, { x: 10 }]]),
      f.writer.write([[0, { x: 20 }]]),
      f.writer.write([[0, { x: null }], [0, { x: 99 }]]),
      f.writer.write([[0, { x: 30 }]]),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((results[2] as PromiseRejectedResult).reason), /NOT NULL/);
    assert.deepEqual(f.values(), [10, 20, 30], 'the failed batch left nothing behind');
  } finally {
    await f.close();
  }
});

test('close waits for outstanding writes', async () => {
  const f = fixture();
  const pending = f.writer.write([[0, { x: 7 }]]);
  await f.writer.close();
  await pending;
  assert.deepEqual(f.values(), [7]);
  await f.close().catch(() => undefined);
});
