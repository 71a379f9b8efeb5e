// /feedback/query: field selection, dotted payload fields, $expr filters, sorting, paging.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const P = 'query-entity/query-project';
let t: TestApp;
const ids: string[] = [];

// Five rows, created in this order (insertion order is the default order).
const PAYLOADS: Record<string, unknown>[] = [
  { note: 'first', score: 5, flag: true, obj: { a: [1, 2] } },
  { note: 'second', score: 2.5, flag: false },
  { note: 'third', score: 10 },
  { note: 'fourth', score: null },
  { note: 'fifth' },
];

before(async () => {
  t = await startTestApp();
  for (const [i, payload] of PAYLOADS.entries()) {
    const r = await t.post('/feedback/create', {
      project_id: P,
      weave_ref: `weave:///${P}/call/c${i % 2}`,
      feedback_type: i === 2 ? 'custom' : 'wandb.note.1',
      payload,
    });
    assert.equal(r.status, 200, r.text);
    ids.push(r.body.id);
  }
  await t.post('/feedback/create', {
    project_id: 'else/where',
    weave_ref: 'weave:///else/where/call/x',
    feedback_type: 'custom',
    payload: {},
  });
});
after(async () => {
  await t.close();
});

const query = async (body: Record<string, unknown>) => {
  const r = await t.post('/feedback/query', { project_id: P, ...body });
  assert.equal(r.status, 200, r.text);
  return r.body.result as Record<string, unknown>[];
};

test('without fields every column comes back, in insertion order, for this project only', async () => {
  const rows = await query({});
  assert.deepEqual(
    rows.map((r) => r.id),
    ids,
  );
  assert.equal(Object.keys(rows[0]!).length, 25);
});

test('fields selects exactly the named keys; dotted payload fields read JSON_VALUE text', async () => {
  const rows = await query({
    fields: [
      'id',
      'payload.note',
      'payload.score',
      'payload.flag',
      'payload.obj',
      'payload.obj.a.1',
      'payload.missing',
    ],
  });
  assert.deepEqual(rows[0], {
    id: ids[0],
    'payload.note': 'first',
    'payload.score': '5',
    'payload.flag': 'true',
    'payload.obj': '{"a":[1,2]}',
    'payload.obj.a.1': '2',
    'payload.missing': '',
  });
  assert.equal(rows[1]!['payload.score'], '2.5');
  assert.equal(rows[3]!['payload.score'], '');
  const [first] = await query({ fields: ['created_at', 'feedback_type'], limit: 1 });
  assert.deepEqual(Object.keys(first!), ['created_at', 'feedback_type']);
  assert.match(String(first!.created_at), /Z$/);
});

test('unknown fields are a 422 naming the field', async () => {
  for (const body of [
    { fields: ['nope'] },
    { sort_by: [{ field: 'nope', direction: 'asc' }] },
    { query: { $expr: { $eq: [{ $getField: 'nope' }, { $literal: 1 }] } } },
    { fields: ['payload.'] },
  ]) {
    const r = await t.post('/feedback/query', { project_id: P, ...body });
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.match(r.text, /Invalid feedback field/);
  }
});

test('$expr filters on columns and payload paths', async () => {
  const q = async ($expr: unknown) => (await query({ fields: ['id'], query: { $expr } })).map((r) => r.id);
  assert.deepEqual(await q({ $eq: [{ $getField: 'feedback_type' }, { $literal: 'custom' }] }), [ids[2]]);
  assert.deepEqual(await q({ $eq: [{ $getField: 'payload.note' }, { $literal: 'second' }] }), [ids[1]]);
  assert.deepEqual(await q({ $gt: [{ $getField: 'payload.score' }, { $literal: 4 }] }), [ids[0], ids[2]]);
  assert.deepEqual(await q({ $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${P}/call/c1` }] }), [
    ids[1],
    ids[3],
  ]);
  assert.deepEqual(await q({ $in: [{ $getField: 'id' }, [{ $literal: ids[4] }, { $literal: ids[0] }]] }), [
    ids[0],
    ids[4],
  ]);
  assert.deepEqual(
    await q({
      $contains: { input: { $getField: 'payload.note' }, substr: { $literal: 'TH' }, case_insensitive: true },
    }),
    [ids[2], ids[3], ids[4]],
  );
  assert.deepEqual(await q({ $gte: [{ $getField: 'created_at' }, { $literal: '2000-01-01T00:00:00Z' }] }), ids);
  assert.deepEqual(await q({ $not: [{ $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.note.1' }] }] }), [
    ids[2],
  ]);
});

test('a malformed $expr is a 400', async () => {
  const r = await t.post('/feedback/query', { project_id: P, query: { $expr: { $bogus: [] } } });
  assert.equal(r.status, 400, r.text);
  const extra = await t.post('/feedback/query', { project_id: P, query: { $expr: {}, more: 1 } });
  assert.equal(extra.status, 422, extra.text);
});

test('sort_by orders by columns and payload paths (numbers as numbers, missing last)', async () => {
  const sorted = async (sort_by: unknown) => (await query({ fields: ['id'], sort_by })).map((r) => r.id);
  assert.deepEqual(await sorted([{ field: 'payload.score', direction: 'desc' }]), [
    ids[2],
    ids[0],
    ids[1],
    ids[3],
    ids[4],
  ]);
  assert.deepEqual(await sorted([{ field: 'payload.score', direction: 'asc' }]), [
    ids[1],
    ids[0],
    ids[2],
    ids[3],
    ids[4],
  ]);
  assert.deepEqual(await sorted([{ field: 'payload.note', direction: 'asc' }]), [
    ids[4],
    ids[0],
    ids[3],
    ids[1],
    ids[2],
  ]);
  assert.deepEqual(
    await sorted([
      { field: 'feedback_type', direction: 'asc' },
      { field: 'created_at', direction: 'desc' },
    ]).then((r) => r[0]),
    ids[2],
  );
  const bad = await t.post('/feedback/query', { project_id: P, sort_by: [{ field: 'id', direction: 'DESC' }] });
  assert.equal(bad.status, 422);
});

test('limit and offset page through the rows', async () => {
  const page = async (limit: number | null, offset: number | null) =>
    (await query({ fields: ['id'], limit, offset })).map((r) => r.id);
  assert.deepEqual(await page(2, null), ids.slice(0, 2));
  assert.deepEqual(await page(2, 2), ids.slice(2, 4));
  assert.deepEqual(await page(null, 3), ids.slice(3));
  assert.deepEqual(await page(0, null), []);
  const neg = await t.post('/feedback/query', { project_id: P, limit: -1 });
  assert.equal(neg.status, 422);
});

test('explicit nulls mean "not given"', async () => {
  const rows = await query({ fields: null, query: null, sort_by: null, limit: null, offset: null });
  assert.deepEqual(
    rows.map((r) => r.id),
    ids,
  );
});

test('total_count counts the matching rows whatever the limit; fields ["count(*)"] answers the count (as Weave)', async () => {
  const notes = { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.note.1' }] } };
  const page = await t.post('/feedback/query', { project_id: P, query: notes, limit: 1, offset: 1 });
  assert.equal(page.body.result.length, 1);
  assert.equal(page.body.total_count, 4);
  assert.equal((await t.post('/feedback/query', { project_id: P })).body.total_count, 5);
  assert.deepEqual((await t.post('/feedback/query', { project_id: P, fields: ['count(*)'], query: notes })).body, {
    result: [{ 'count(*)': 4 }],
    total_count: 4,
  });
  assert.deepEqual((await t.post('/feedback/query', { project_id: P, fields: ['COUNT(*)'] })).body.result, [
    { 'COUNT(*)': 5 },
  ]);
  assert.deepEqual((await t.post('/feedback/query', { project_id: 'no/rows', fields: ['count(*)'] })).body.result, [
    { 'count(*)': 0 },
  ]);
  const mixed = await t.post('/feedback/query', { project_id: P, fields: ['count(*)', 'id'] });
  assert.equal(mixed.status, 400);
  assert.match(mixed.body.reason, /count\(\*\) cannot be combined/);
  const other = await t.post('/feedback/query', { project_id: P, fields: ['sum(payload.score)'] });
  assert.equal(other.status, 422);
});
