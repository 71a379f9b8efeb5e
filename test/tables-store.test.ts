// The SQLite table store's row select: exact SQL and parameters, and the plans that make
// streaming cheap (table order reads the entries' primary key: no sorter, no scan for offsets).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildTableRowsSelect } from '../src/storage/sqlite/tables/table-store.js';
import type { TableRowsQuery } from '../src/storage/tables/table-store.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const q = (over: Partial<TableRowsQuery> = {}): TableRowsQuery => ({
  projectId: 'e/p',
  digest: 'd',
  rowDigests: null,
  sort: [],
  limit: null,
  offset: null,
  ...over,
});
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
const SELECT =
  'SELECT e.position, r.digest, r.val FROM table_entries AS e JOIN table_rows AS r ON r.id = e.row_id WHERE';

test('table order: an offset becomes a position bound; values only as parameters', () => {
  const s = buildTableRowsSelect(7, q({ offset: 10, limit: 5 }));
  assert.equal(flat(s.sql), `${SELECT} e.table_id = ? AND e.position >= ? ORDER BY e.position ASC LIMIT ? OFFSET ?`);
  assert.deepEqual(s.params, [7n, 10n, 5n, 0n]);
});

test('filter and sort: json_each list, the dialect ORDER BY, position as the last tie-break', () => {
  const s = buildTableRowsSelect(
    1,
    q({
      rowDigests: ['a', "b'; DROP TABLE tables; --"],
      sort: [{ field: { kind: 'json', column: 'val', path: ['x"y', 'z'] }, direction: 'desc' }],
      offset: 3,
    }),
  );
  assert.match(
    flat(s.sql),
    /^SELECT .* WHERE e\.table_id = \? AND r\.digest IN \(SELECT value FROM json_each\(\?\)\) ORDER BY .* DESC NULLS LAST, e\.position ASC LIMIT \? OFFSET \?$/,
  );
  assert.ok(!s.sql.includes('DROP') && !s.sql.includes('x"y'), 'no value in the SQL text');
  assert.equal(s.params[1], JSON.stringify(['a', "b'; DROP TABLE tables; --"]));
  assert.deepEqual(s.params.slice(-2), [-1n, 3n]);
  assert.throws(() =>
    buildTableRowsSelect(
      1,
      q({ sort: [{ field: { kind: 'json', column: 'inputs', path: ['a'] }, direction: 'asc' }] }),
    ),
  );
});

test('query plans: table order uses the primary key without a temp b-tree', () => {
  const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
  try {
    const plan = (s: { sql: string; params: unknown[] }) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    const ordered = plan(buildTableRowsSelect(1, q({ offset: 100, limit: 10 })));
    assert.match(ordered, /SEARCH e USING PRIMARY KEY \(table_id=\? AND position>\?\)/);
    assert.doesNotMatch(ordered, /TEMP B-TREE/);
    assert.match(ordered, /SEARCH r USING INTEGER PRIMARY KEY/);
  } finally {
    db.close();
  }
});
