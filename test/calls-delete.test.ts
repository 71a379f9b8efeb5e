// /calls/delete: soft delete cascading to descendants, limits and errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem, newId } from './helpers/calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const count = async (filter: Record<string, unknown>) =>
  (await t.post('/calls/query_stats', { project_id: PROJECT, filter })).body.count;

test('deleting a call deletes its whole subtree and nothing else', async () => {
  const root = start();
  const a = start({ trace_id: root.trace_id, parent_id: root.id });
  const a1 = start({ trace_id: root.trace_id, parent_id: a.id });
  const a11 = start({ trace_id: root.trace_id, parent_id: a1.id });
  const b = start({ trace_id: root.trace_id, parent_id: root.id });
  await t.post('/call/upsert_batch', {
    batch: [root, a, a1, a11, b].flatMap((s) => [startItem(s), endItem(end(s.id))]),
  });
  const r = await t.post('/calls/delete', { project_id: PROJECT, call_ids: [a.id] });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { num_deleted: 3 });
  assert.equal(await count({ trace_ids: [root.trace_id] }), 2);
  for (const gone of [a, a1, a11])
    assert.deepEqual((await t.post('/call/read', { project_id: PROJECT, id: gone.id })).body, { call: null });
  assert.ok((await t.post('/call/read', { project_id: PROJECT, id: b.id })).body.call);
  // Deleting again is harmless; retried starts do not resurrect a deleted call.
  assert.equal((await t.post('/calls/delete', { project_id: PROJECT, call_ids: [a.id] })).status, 200);
  await t.post('/call/upsert_batch', { batch: [startItem(a)] });
  assert.deepEqual((await t.post('/call/read', { project_id: PROJECT, id: a.id })).body, { call: null });
});

test('deleting in one project leaves another project alone', async () => {
  const s = start();
  const o = start({ id: s.id, project_id: 'other/proj' });
  await t.post('/call/upsert_batch', { batch: [startItem(s), startItem(o)] });
  await t.post('/calls/delete', { project_id: 'other/proj', call_ids: [s.id] });
  assert.ok((await t.post('/call/read', { project_id: PROJECT, id: s.id })).body.call);
});

test('unknown ids are not an error; more than 1000 ids is 413; malformed bodies 422', async () => {
  assert.equal((await t.post('/calls/delete', { project_id: PROJECT, call_ids: [newId()] })).status, 200);
  const many = await t.post('/calls/delete', {
    project_id: PROJECT,
    call_ids: Array.from({ length: 1001 }, (_, i) => `c${i}`),
  });
  assert.equal(many.status, 413);
  assert.equal(typeof many.body.reason, 'string');
  assert.equal((await t.post('/calls/delete', { project_id: PROJECT })).status, 422);
  assert.equal((await t.post('/calls/delete', { project_id: PROJECT, call_ids: 'abc' })).status, 422);
  assert.equal((await t.post('/calls/delete', { project_id: PROJECT, call_ids: [], x: 1 })).status, 422);
});
