// POST /table/update through HTTP: append / pop / insert applied in order to a copy of
// the base table, the answer's updated_row_digests, index rules, unknown bases, malformed bodies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';
import { valDigest } from '../src/service/json/digest.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const hex = (s: string) => createHash('sha256').update(s).digest('hex');
const r = (n: number) => ({ n });

async function create(rows: unknown[]): Promise<string> {
  const res = await t.post('/table/create', { table: { project_id: P, rows } });
  assert.equal(res.status, 200, res.text);
  return res.body.digest;
}
const update = (base_digest: string, updates: unknown[], project_id = P) =>
  t.post('/table/update', { project_id, base_digest, updates });
const values = async (digest: string) =>
  ((await t.post('/table/query', { project_id: P, digest })).body.rows as any[]).map((x) => x.val.n);

test('updates apply in order; the new table equals one created with the same rows; the base is untouched', async () => {
  const base = await create([r(0), r(1), r(2)]);
  const res = await update(base, [
    { append: { row: r(3) } }, // 0 1 2 3
    { pop: { index: 0 } }, // 1 2 3
    { insert: { index: 1, row: r(9) } }, // 1 9 2 3
    { insert: { index: 4, row: r(4) } }, // 1 9 2 3 4 (insert at length appends)
    { pop: { index: 4 } }, // 1 9 2 3
  ]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['digest', 'updated_row_digests']);
  assert.deepEqual(res.body.updated_row_digests, [r(3), r(0), r(9), r(4), r(4)].map(valDigest));
  assert.deepEqual(await values(res.body.digest), [1, 9, 2, 3]);
  assert.equal(res.body.digest, hex([1, 9, 2, 3].map((n) => valDigest(r(n))).join('')));
  assert.equal(res.body.digest, await create([r(1), r(9), r(2), r(3)]));
  assert.deepEqual(await values(base), [0, 1, 2]);
});

test('an empty update list gives the base digest back; updates can build on an empty table', async () => {
  const base = await create([r(5)]);
  const same = await update(base, []);
  assert.deepEqual(same.body, { digest: base, updated_row_digests: [] });
  const empty = await create([]);
  const grown = await update(empty, [{ insert: { index: 0, row: r(1) } }, { append: { row: r(1) } }]);
  assert.equal(grown.status, 200, grown.text);
  assert.deepEqual(await values(grown.body.digest), [1, 1]);
  const shrunk = await update(grown.body.digest, [{ pop: { index: 1 } }, { pop: { index: 0 } }]);
  assert.equal(shrunk.body.digest, empty);
});

test('index out of range is a 400 and nothing is written', async () => {
  const base = await create([r(10), r(11)]);
  const cases = [
    [{ pop: { index: 2 } }],
    [{ pop: { index: -1 } }],
    [{ insert: { index: 3, row: r(1) } }],
    [{ insert: { index: -1, row: r(1) } }],
    [{ append: { row: r(12) } }, { pop: { index: 0 } }, { pop: { index: 0 } }, { pop: { index: 1 } }],
  ];
  for (const updates of cases) {
    const res = await update(base, updates);
    assert.equal(res.status, 400, `${JSON.stringify(updates)}: ${res.text}`);
    assert.equal(res.body.reason, 'Index out of range');
    assert.equal(res.body.error_code, 'INVALID_REQUEST');
  }
  // The row of the failed append was not stored, and no table of [10, 11, 12] exists.
  const would = hex([r(10), r(11), r(12)].map(valDigest).join(''));
  assert.equal((await t.post('/table/query_stats', { project_id: P, digest: would })).body.count, 0);
  assert.equal((await t.store.tables.getRows(P, [valDigest(r(12))])).size, 0);
});

test('an unknown base table is a 404 naming project and digest', async () => {
  const missing = 'a'.repeat(64);
  const res = await update(missing, [{ append: { row: r(1) } }]);
  assert.equal(res.status, 404, res.text);
  assert.equal(res.body.reason, `Table ${P}:${missing} not found`);
  const base = await create([r(20)]);
  const otherProject = await update(base, [], 'other/project');
  assert.equal(otherProject.status, 404);
});

test('malformed update bodies are 422', async () => {
  const base = await create([r(30)]);
  const bodies: unknown[] = [
    { project_id: P, base_digest: base },
    { project_id: P, updates: [] },
    { base_digest: base, updates: [] },
    { project_id: P, base_digest: base, updates: {} },
    { project_id: P, base_digest: base, updates: [{}] },
    { project_id: P, base_digest: base, updates: [{ append: { row: 5 } }] },
    { project_id: P, base_digest: base, updates: [{ append: {} }] },
    { project_id: P, base_digest: base, updates: [{ pop: { index: 'x' } }] },
    { project_id: P, base_digest: base, updates: [{ pop: { index: 1.5 } }] },
    { project_id: P, base_digest: base, updates: [{ insert: { index: 0 } }] },
    { project_id: P, base_digest: base, updates: [{ remove: { index: 0 } }] },
    { project_id: P, base_digest: base, updates: [], extra: true },
  ];
  for (const body of bodies) {
    const res = await t.post('/table/update', body);
    assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
    assert.ok(Array.isArray(res.body.detail), res.text);
  }
});
