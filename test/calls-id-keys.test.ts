// Calls are found by their full ids, whatever the engine indexes: SQLite looks calls up by a
// key of the id (its first 16 hex digits, sqlite-call-keys.ts), which ids may share. Ids
// sharing a key, the same id in two projects, and ids of every shape (OTLP hex, upper and
// lower case, not hex at all) stay distinct calls for reads, writes, filters and deletes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { start, end, newId } from './helpers/calls.js';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const OTHER = 'test-entity/other-keys-project';

/** Ids that share their first 16 hex digits (one UUIDv7 millisecond and counter) and differ after. */
function twins(): [string, string] {
  const head = newId().slice(0, 19); // xxxxxxxx-xxxx-7xxx-
  return [`${head}8000-000000000001`, `${head}8000-000000000002`];
}

const read = async (id: string, project = PROJECT) => (await t.post('/call/read', { project_id: project, id })).body.call;
async function ids(body: Record<string, unknown>, project = PROJECT): Promise<string[]> {
  const r = await t.post('/calls/stream_query', { project_id: project, ...body });
  assert.equal(r.status, 200, r.text);
  return r.text.split('\n').filter(Boolean).map((l) => JSON.parse(l).id).sort();
}
const count = async (body: Record<string, unknown>) => (await t.post('/calls/query_stats', { project_id: PROJECT, ...body })).body.count;

test('calls whose ids share a key are distinct: ends, renames, reads and filters reach only their own call', async () => {
  const [a, b] = twins();
  const trace = newId();
  for (const id of [a, b]) assert.equal((await t.post('/call/start', { start: start({ id, trace_id: trace }) })).status, 200);
  assert.equal((await t.post('/call/end', { end: end(a, { output: 'a' }) })).status, 200);
  assert.equal((await t.post('/call/update', { project_id: PROJECT, call_id: b, display_name: 'only b' })).status, 200);

  const [ca, cb] = [await read(a), await read(b)];
  assert.equal(ca.output, 'a');
  assert.equal(ca.display_name ?? null, null);
  assert.equal(cb.ended_at ?? null, null);
  assert.equal(cb.display_name, 'only b');
  assert.deepEqual(await ids({ filter: { call_ids: [a] } }), [a]);
  assert.deepEqual(await ids({ query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: b }] } } }), [b]);
  assert.deepEqual(await ids({ query: { $expr: { $not: [{ $eq: [{ $getField: 'id' }, { $literal: b }] }] } }, filter: { trace_ids: [trace] } }), [a]);
  assert.equal(await count({ filter: { call_ids: [a, b] } }), 2);
});

test('children, traces and deletes follow full ids when parents and traces share keys', async () => {
  const [p1, p2] = twins();
  const [t1, t2] = twins();
  const c1 = newId();
  const c2 = newId();
  const batch = [
    start({ id: p1, trace_id: t1 }), start({ id: c1, trace_id: t1, parent_id: p1 }),
    start({ id: p2, trace_id: t2 }), start({ id: c2, trace_id: t2, parent_id: p2 }),
  ].map((s) => ({ mode: 'start', req: { start: s } }));
  assert.equal((await t.post('/call/upsert_batch', { batch })).status, 200);

  assert.deepEqual(await ids({ filter: { parent_ids: [p1] } }), [c1]);
  assert.deepEqual(await ids({ filter: { trace_ids: [t2] } }), [c2, p2].sort());
  assert.deepEqual(await ids({ filter: { trace_ids: [t1], parent_ids: [p1] } }), [c1]);
  assert.deepEqual(await ids({ filter: { trace_ids: [t1], trace_roots_only: true } }), [p1]);

  assert.equal((await t.post('/calls/delete', { project_id: PROJECT, call_ids: [p1] })).status, 200);
  assert.equal(await read(p1), null);
  assert.equal(await read(c1), null);
  assert.equal((await read(p2)).id, p2);
  assert.equal((await read(c2)).id, c2);
});

test('the same id in two projects is two calls', async () => {
  const id = newId();
  const trace = newId();
  await t.post('/call/start', { start: start({ id, trace_id: trace, inputs: { which: 'first' } }) });
  await t.post('/call/start', { start: start({ id, trace_id: trace, inputs: { which: 'second' }, project_id: OTHER }) });
  await t.post('/call/end', { end: end(id, { output: 'second', project_id: OTHER }) });

  assert.deepEqual((await read(id)).inputs, { which: 'first' });
  assert.equal((await read(id)).ended_at ?? null, null);
  assert.equal((await read(id, OTHER)).output, 'second');
  assert.deepEqual(await ids({ filter: { trace_ids: [trace] } }), [id]);
  assert.equal((await t.post('/calls/delete', { project_id: OTHER, call_ids: [id] })).status, 200);
  assert.equal(await read(id, OTHER), null);
  assert.deepEqual((await read(id)).inputs, { which: 'first' });
});

test('ids of any shape: OTLP hex in either case, short hex, not hex; a retried start adds no call', async () => {
  const tag = newId().replace(/-/g, '').slice(0, 12);
  const shapes = [`abcdef${tag.slice(0, 10)}`, `ABCDEF${tag.slice(0, 10)}`, 'ab', `call-${tag}`, `ünïcode-${tag}`];
  const trace = newId();
  for (const [i, id] of shapes.entries()) {
    const r = await t.post('/call/start', { start: start({ id, trace_id: trace, inputs: { i } }) });
    assert.equal(r.status, 200, r.text);
  }
  await t.post('/call/start', { start: start({ id: shapes[0]!, trace_id: trace, inputs: { i: 0 } }) });
  for (const [i, id] of shapes.entries()) assert.deepEqual((await read(id)).inputs, { i }, id);
  assert.deepEqual(await ids({ filter: { trace_ids: [trace] } }), [...shapes].sort());
  assert.deepEqual(await ids({ filter: { call_ids: [shapes[1]!] } }), [shapes[1]]);
});
