// POST /call/read against the interface document (§2.1, §4.1), field by field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem, newId, opRef } from './helpers/calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const CALL_FIELDS = [
  'id',
  'project_id',
  'op_name',
  'display_name',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'started_at',
  'attributes',
  'inputs',
  'ended_at',
  'exception',
  'output',
  'summary',
  'wb_user_id',
  'wb_username',
  'wb_run_id',
  'wb_run_step',
  'wb_run_step_end',
  'deleted_at',
  'expire_at',
  'storage_size_bytes',
  'total_storage_size_bytes',
];

test('every Call field is present with its documented type', async () => {
  const root = start({
    op: opRef('root'),
    thread_id: 'thread-1',
    turn_id: 'turn-1',
    wb_run_id: `${PROJECT}/run-1`,
    wb_run_step: 3,
    inputs: { q: 'hi', n: 1.5, nested: { a: [1, 2] } },
  });
  await t.post('/call/upsert_batch', {
    batch: [
      startItem(root),
      endItem(
        end(root.id, {
          output: { text: 'hello' },
          wb_run_step_end: 7,
          summary: { usage: { 'gpt-4o': { requests: 1 } } },
        }),
      ),
    ],
  });
  const r = await t.post('/call/read', { project_id: PROJECT, id: root.id });
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body), ['call']);
  const c = r.body.call;
  assert.deepEqual(Object.keys(c).sort(), [...CALL_FIELDS].sort());
  assert.equal(c.id, root.id);
  assert.equal(c.project_id, PROJECT);
  assert.equal(c.op_name, root.op_name);
  assert.equal(c.display_name, null);
  assert.equal(c.trace_id, root.trace_id);
  assert.equal(c.parent_id, null);
  assert.equal(c.thread_id, 'thread-1');
  assert.equal(c.turn_id, 'turn-1');
  assert.equal(c.started_at, '2026-11-21T05:03:29.057Z');
  assert.equal(c.ended_at, '2026-11-21T05:03:29.558Z');
  assert.deepEqual(c.attributes, root.attributes);
  assert.deepEqual(c.inputs, root.inputs);
  assert.deepEqual(c.output, { text: 'hello' });
  assert.equal(c.exception, null);
  assert.deepEqual(c.summary.usage, { 'gpt-4o': { requests: 1 } });
  assert.deepEqual(c.summary.weave, { status: 'success', latency_ms: 501, trace_name: 'root' });
  assert.equal(c.wb_user_id, LOCAL_USER);
  assert.equal(c.wb_username, 'local');
  assert.equal(c.wb_run_id, `${PROJECT}/run-1`);
  assert.equal(c.wb_run_step, 3);
  assert.equal(c.wb_run_step_end, 7);
  assert.equal(c.deleted_at, null);
  assert.equal(c.expire_at, null, 'no retention configured: expire_at is null');
  assert.equal(c.storage_size_bytes, null, 'only with include_storage_size');
  assert.equal(c.total_storage_size_bytes, null, 'only with include_total_storage_size');
});

test('include_storage_size and include_total_storage_size give the call and whole-trace sizes', async () => {
  const root = start({ inputs: { text: 'a'.repeat(1000) } });
  const child = start({ trace_id: root.trace_id, parent_id: root.id, inputs: { text: 'b'.repeat(3000) } });
  await t.post('/call/upsert_batch', {
    batch: [startItem(root), startItem(child), endItem(end(child.id)), endItem(end(root.id))],
  });
  const r = await t.post('/call/read', {
    project_id: PROJECT,
    id: root.id,
    include_storage_size: true,
    include_total_storage_size: true,
  });
  const c = r.body.call;
  assert.ok(
    Number.isInteger(c.storage_size_bytes) && c.storage_size_bytes > 1000 && c.storage_size_bytes < 2000,
    String(c.storage_size_bytes),
  );
  const kid = (await t.post('/call/read', { project_id: PROJECT, id: child.id, include_storage_size: true })).body.call;
  assert.ok(kid.storage_size_bytes > 3000);
  assert.equal(c.total_storage_size_bytes, c.storage_size_bytes + kid.storage_size_bytes);
  const only = (await t.post('/call/read', { project_id: PROJECT, id: root.id, include_total_storage_size: true })).body
    .call;
  assert.equal(only.storage_size_bytes, null);
  assert.equal(only.total_storage_size_bytes, c.total_storage_size_bytes);
  // As in Weave: the trace total is set on the trace root only.
  const kidTotal = (await t.post('/call/read', { project_id: PROJECT, id: child.id, include_total_storage_size: true }))
    .body.call;
  assert.equal(kidTotal.total_storage_size_bytes, null);
});

test('flags accept null and false; include_costs is accepted', async () => {
  const s = start();
  await t.post('/call/start', { start: s });
  for (const v of [null, false, true]) {
    const r = await t.post('/call/read', {
      project_id: PROJECT,
      id: s.id,
      include_costs: v,
      include_storage_size: v === true ? false : v,
      include_total_storage_size: null,
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.call.id, s.id);
    assert.equal(r.body.call.summary.weave.status, 'running');
    assert.equal(r.body.call.ended_at, null);
    assert.equal(r.body.call.summary.weave.latency_ms, undefined);
  }
});

test('a missing call, a call of another project and a deleted call read as {"call": null}', async () => {
  assert.deepEqual((await t.post('/call/read', { project_id: PROJECT, id: newId() })).body, { call: null });
  const s = start();
  await t.post('/call/start', { start: s });
  assert.deepEqual((await t.post('/call/read', { project_id: 'other/project', id: s.id })).body, { call: null });
  await t.post('/calls/delete', { project_id: PROJECT, call_ids: [s.id] });
  const r = await t.post('/call/read', { project_id: PROJECT, id: s.id });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { call: null });
});

test('microsecond start times (Python SDK) round-trip exactly; offsets are normalised to UTC', async () => {
  const s = start({ started_at: '2026-01-02T03:04:05.123456+02:00' });
  await t.post('/call/start', { start: s });
  const c = (await t.post('/call/read', { project_id: PROJECT, id: s.id })).body.call;
  assert.equal(c.started_at, '2026-01-02T01:04:05.123456Z');
  const naive = start({ started_at: '2026-01-02T03:04:05' });
  await t.post('/call/start', { start: naive });
  assert.equal(
    (await t.post('/call/read', { project_id: PROJECT, id: naive.id })).body.call.started_at,
    '2026-01-02T03:04:05.000Z',
  );
});

test('validation: unknown properties, missing fields and wrong types are 422', async () => {
  const cases: [unknown, (string | number)[]][] = [
    [{ project_id: PROJECT, id: 'x', extra: 1 }, ['body', 'extra']],
    [{ project_id: PROJECT }, ['body', 'id']],
    [{ id: 'x' }, ['body', 'project_id']],
    [{ project_id: PROJECT, id: 5 }, ['body', 'id']],
    [{ project_id: PROJECT, id: 'x', include_costs: 'yes' }, ['body', 'include_costs']],
  ];
  for (const [body, loc] of cases) {
    const r = await t.post('/call/read', body);
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.ok(Array.isArray(r.body.detail));
    assert.deepEqual(r.body.detail[0].loc, loc, JSON.stringify(body));
    assert.equal(typeof r.body.detail[0].msg, 'string');
    assert.equal(typeof r.body.detail[0].type, 'string');
  }
  const arr = await t.post('/call/read', [1]);
  assert.equal(arr.status, 422);
});
