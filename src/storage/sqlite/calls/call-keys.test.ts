// The call keys on a real SQLite database with every migration: what a key is, and that every
// lookup by id, trace id or parent id goes through its key index (a lookup that printed the
// key differently would silently scan the project instead).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqlite } from '../engine/database.js';
import { SQLITE_MIGRATIONS } from '../engine/migrations/index.js';
import { callKey, callKeyOf, keyParams } from './call-keys.js';
import { buildCallByIdSelect, buildCallsCount, buildCallsSelect } from './call-select.js';
import { buildMetricRows } from './call-metrics.js';
import { callWrites } from './call-writes.js';
import { compileCallsQuery, type CallsQueryInput } from '../../../query/compile-calls-query.js';

const db = openSqlite(':memory:', SQLITE_MIGRATIONS);
const keyOf = (id: string | null) => {
  const sql = `SELECT ${callKeyOf('?')} AS k`;
  return (db.prepare(sql).get(...keyParams(id as string)) as { k: string | null }).k;
};
const plan = (sql: string, params: readonly unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');

test('a key is the first 16 hex digits of the id, dashes left out; other ids key as themselves', () => {
  assert.equal(keyOf('0192f1a2-1234-7abc-8def-0123456789ab'), '0192f1a212347abc');
  assert.equal(keyOf('0a1b2c3d4e5f6a7b'), '0a1b2c3d4e5f6a7b');
  assert.equal(keyOf('0123456789abcdef0123456789abcdef'), '0123456789abcdef');
  assert.equal(keyOf('ABCDEF0123456789-x'), 'ABCDEF0123456789');
  assert.equal(keyOf('0a1b2c3d4e5f6a7'), '0a1b2c3d4e5f6a7'); // 15 digits: itself
  assert.equal(keyOf('call-1'), 'call-1');
  assert.equal(keyOf(''), '');
  assert.equal(keyOf(null), null);
});

test("callKey (the writer's, in JavaScript) and callKeyOf (SQL) give every id the same key", () => {
  const hex = '0123456789abcdefABCDEF';
  const pick = (n: number, chars: string) => {
    const cs = [...chars];
    return Array.from({ length: n }, () => cs[Math.floor(Math.random() * cs.length)]).join('');
  };
  const ids = [
    '0192f1a2-1234-7abc-8def-0123456789ab',
    '0a1b2c3d4e5f6a7b',
    '0a1b2c3d4e5f6a7',
    'call-1',
    '',
    '-',
    '----0123456789abcdef',
    '0123-4567-89ab-cdef',
    '0123456789abcdeg',
    'é0123456789abcdef',
    '0123456789abcde\u{1F600}',
    '\u{1F600}'.repeat(20),
  ];
  for (let i = 0; i < 500; i++) ids.push(pick(1 + Math.floor(Math.random() * 40), `${hex}-xyz\u00e9\u{1F600}`));
  ids.push('\ud800abc', '0123456789abcdef\udc00'); // lone surrogates, which SQLite stores as U+FFFD
  // As stored: a bound text goes through the same UTF-8 conversion either way.
  const stored = (x: string) => db.prepare('SELECT ? AS k').pluck().get(x);
  for (const id of ids) assert.equal(stored(callKey(id)), keyOf(id), JSON.stringify(id));
});

test('the schema names no SQL function newer than SQLite 3.31 (older sqlite3 tools can check and vacuum it)', () => {
  const sql = (
    db.prepare("SELECT group_concat(sql, ';') FROM sqlite_schema WHERE sql IS NOT NULL").pluck().get() as string
  ).toLowerCase();
  for (const newer of [
    'unhex(',
    'concat(',
    'concat_ws(',
    'octet_length(',
    'timediff(',
    'format(',
    'string_agg(',
    'iif(',
  ]) {
    assert.ok(!sql.includes(newer), `the schema uses ${newer}`);
  }
});

test("UUIDv7 keys keep the ids' time order, so the SDK's inserts stay at the end of each index", () => {
  const ids = [
    '0192f1a2-1234-7abc-8def-0123456789ab',
    '0192f1a2-1235-7000-8000-000000000000',
    '0193a000-0000-7000-8000-000000000000',
  ];
  const keys = ids.map((id) => keyOf(id)!);
  assert.deepEqual([...keys].sort(), keys);
});

const CASES: Record<string, [CallsQueryInput, RegExp]> = {
  call_ids: [
    { project_id: 'e/p', filter: { call_ids: ['a', 'b'] } },
    /SEARCH call_ids USING PRIMARY KEY \(key=\?\)[\s\S]*SEARCH call_ids_recent USING PRIMARY KEY \(key=\?\)/,
  ],
  trace_ids: [{ project_id: 'e/p', filter: { trace_ids: ['t'] } }, /USING INDEX calls_trace \(trace_key=\?/],
  parent_ids: [{ project_id: 'e/p', filter: { parent_ids: ['p'] } }, /USING INDEX calls_parent \(parent_key=\?/],
  'trace_ids with op_names': [
    { project_id: 'e/p', filter: { trace_ids: ['t'], op_names: ['weave:///e/p/op/o:1'] } },
    /USING INDEX calls_trace \(trace_key=\?/,
  ],
  '$expr id = literal': [
    { project_id: 'e/p', query: { $expr: { $eq: [{ $literal: 'x' }, { $getField: 'id' }] } } },
    /SEARCH call_ids USING PRIMARY KEY \(key=\?\)[\s\S]*SEARCH call_ids_recent USING PRIMARY KEY \(key=\?\)/,
  ],
  roots: [
    { project_id: 'e/p', filter: { trace_roots_only: true }, sort_by: [{ field: 'started_at', direction: 'desc' }] },
    /USING (COVERING )?INDEX calls_roots \(project_id=\?/,
  ],
};

for (const [name, [req, expected]] of Object.entries(CASES)) {
  test(`${name}: the select, the count and the metric rows go through the key index`, () => {
    const q = compileCallsQuery(req);
    const select = buildCallsSelect({ ...q, includeTotalStorageSize: true }, 0);
    assert.match(plan(select.sql, select.params), expected);
    assert.doesNotMatch(plan(select.sql, select.params), /SCAN calls/);
    const count = buildCallsCount(q, 0);
    assert.match(plan(count.sql, count.params), expected);
    const metrics = buildMetricRows(q, 0, 1, 0);
    assert.match(plan(metrics.sql, metrics.params), expected);
  });
}

test('a point read and the trace bytes of its root go through the id key tables and calls_trace', () => {
  const { sql, args } = buildCallByIdSelect(true, true);
  const p = plan(sql, args('e/p', 'id', 0));
  assert.match(p, /SEARCH calls USING INTEGER PRIMARY KEY \(rowid=\?\)/);
  assert.match(
    p,
    /SEARCH call_ids USING PRIMARY KEY \(key=\?\)[\s\S]*SEARCH call_ids_recent USING PRIMARY KEY \(key=\?\)/,
  );
  assert.match(p, /SEARCH t USING INDEX calls_trace \(trace_key=\?/);
});

test('every write statement finds its call through the id key tables or by rowid, and a delete walks calls_parent', () => {
  const plans: string[] = [];
  const prepare = db.prepare.bind(db);
  const spy = Object.create(db) as typeof db;
  spy.prepare = ((sql: string) => {
    if (/\bWHERE\b/.test(sql) && /\b(calls|call_ids|call_ids_recent)\b/.test(sql))
      plans.push(plan(sql, new Array((sql.match(/\?/g) ?? []).length).fill('x')));
    return prepare(sql);
  }) as typeof db.prepare;
  callWrites(spy);
  assert.ok(plans.length >= 8, `${plans.length} statements with a WHERE`);
  const byKey = plans.filter((p) => /SEARCH (k|call_ids|call_ids_recent) USING PRIMARY KEY \(key=\?/.test(p));
  assert.ok(byKey.length >= 4, `${byKey.length} statements search the key tables`);
  assert.ok(plans.some((p) => /USING INDEX calls_parent \(parent_key=\?\)/.test(p)));
  for (const p of plans) assert.doesNotMatch(p, /SCAN (c|k|calls|call_ids|call_ids_recent)\b/);
});
