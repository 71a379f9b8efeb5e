// The writer's key tables on a real SQLite database with every migration: each call has one
// (key, rowid) pair, in the recent table until a merge moves it, the lowest keys first, into
// call_ids; lookups find calls on either side, and a purge drops the pair wherever it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqlite } from '../engine/database.js';
import { SQLITE_MIGRATIONS } from '../engine/migrations/index.js';
import { callIdKeys, mergeAt } from './call-ids.js';
import { callKey } from './call-keys.js';

const P = 'e/p';
function fresh(limits = { minRecent: 10, slice: 4, commitKeys: 0 }) {
  const db = openSqlite(':memory:', SQLITE_MIGRATIONS);
  const keys = callIdKeys(db, limits);
  const insert = db.prepare('INSERT INTO calls (project_id, id) VALUES (?, ?)');
  const add = (id: string) => {
    const rid = insert.run(P, id).lastInsertRowid;
    keys.add(id, rid);
    return Number(rid);
  };
  const keysOf = (table: string) => db.prepare(`SELECT key FROM ${table} ORDER BY key, rid`).pluck().all() as string[];
  return { db, keys, add, keysOf };
}
const hexId = (n: number) => ((n * 2654435761) % 2 ** 32).toString(16).padStart(8, '0').repeat(2);

test('merges wait for enough recent keys, then sweep them in key order, a slice a commit, to the last', () => {
  const { keys, add, keysOf } = fresh();
  const ids = Array.from({ length: 9 }, (_, i) => hexId(i + 1));
  ids.forEach(add);
  keys.mergeIfDue();
  assert.equal(keysOf('call_ids').length, 0, 'nine keys are below the minimum of ten');
  const more = Array.from({ length: 6 }, (_, i) => hexId(i + 100));
  more.forEach(add);
  const all = [...ids, ...more].map(callKey).sort();
  keys.mergeIfDue();
  assert.deepEqual(keysOf('call_ids'), all.slice(0, 4), 'the four lowest keys moved');
  // A key added behind the sweep waits for the next merge; one ahead of it is swept.
  const behind = '0000000000000001';
  const ahead = 'ffffffffffffffff';
  add(behind);
  add(ahead);
  keys.mergeIfDue();
  assert.deepEqual(keysOf('call_ids'), all.slice(0, 8));
  keys.mergeIfDue();
  assert.deepEqual(keysOf('call_ids'), all.slice(0, 12));
  keys.mergeIfDue();
  assert.deepEqual(keysOf('call_ids'), [...all, ahead], 'the sweep reached the last key');
  assert.deepEqual(keysOf('call_ids_recent'), [behind]);
  keys.mergeIfDue();
  assert.deepEqual(keysOf('call_ids_recent'), [behind], 'one key: no new merge');
});

test('recent keys that fit in one slice move in one commit', () => {
  const { keys, add, keysOf } = fresh({ minRecent: 3, slice: 8, commitKeys: 0 });
  ['a', 'c', 'b', 'd'].forEach(add);
  keys.mergeIfDue();
  assert.deepEqual(keysOf('call_ids'), ['a', 'b', 'c', 'd']);
  assert.deepEqual(keysOf('call_ids_recent'), []);
});

test('every call is found by project and id wherever its key is; a purge drops the pair from either table', () => {
  const { db, keys, add, keysOf } = fresh({ minRecent: 4, slice: 100, commitKeys: 0 });
  const early = ['0192f1a2-1234-7abc-8def-0123456789ab', 'call-1', hexId(7), hexId(8)];
  const rids = early.map(add);
  keys.mergeIfDue();
  assert.equal(keysOf('call_ids').length, 4, 'fewer than a slice: all moved');
  const late = [hexId(9), 'call-2'];
  rids.push(...late.map(add));
  for (const [i, id] of [...early, ...late].entries()) assert.equal(keys.rowOf(P, id), rids[i], id);
  assert.equal(keys.rowOf('other/project', 'call-1'), undefined);
  assert.equal(keys.rowOf(P, 'call-3'), undefined);
  for (const [id, rid] of [
    ['call-1', rids[1]!],
    ['call-2', rids[5]!],
  ] as const) {
    db.prepare('DELETE FROM calls WHERE rowid = ?').run(rid);
    keys.drop(id, rid);
    assert.equal(keys.rowOf(P, id), undefined);
  }
  assert.equal(keysOf('call_ids').length + keysOf('call_ids_recent').length, 4);
});

test('merges come sooner on small tables and later on large ones, never below the minimum', () => {
  assert.equal(mergeAt(0), 4096);
  assert.equal(mergeAt(100_000), Math.round(Math.sqrt(430 * 100_000)));
  assert.ok(mergeAt(1_000_000) > 20_000 && mergeAt(1_000_000) < 21_000);
});
