// Calls are found by their full ids, whatever the engine indexes: SQLite looks calls up by a
// key of the id (its first 16 hex digits, sqlite/calls/call-keys.ts), which ids may share. Ids
// sharing a key, the same id in two projects, and ids of every shape (OTLP hex, upper and
// lower case, not hex at all) stay distinct calls for reads, writes, filters and deletes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { start, end, newId, startItem, endItem } from './helpers/calls.js';
import { testEngine } from './helpers/clickhouse-engine.js';
import { SQLITE_FILE } from '../src/storage/sqlite/store.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const OTHER = 'test-entity/other-keys-project';

/** Ids that share their first 16 hex digits (one UUIDv7 millisecond and counter) and differ after. */
function twins(): [string, string] {
  const head = newId().slice(0, 19); // xxxxxxxx-xxxx-7xxx-
  return [`${head}8000-000000000001`, `${head}8000-000000000002`];
}

const read = async (id: string, project = PROJECT) =>
  (await t.post('/call/read', { project_id: project, id })).body.call;
async function ids(body: Record<string, unknown>, project = PROJECT): Promise<string[]> {
  const r = await t.post('/calls/stream_query', { project_id: project, ...body });
  assert.equal(r.status, 200, r.text);
  return r.text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).id)
    .sort();
}
const count = async (body: Record<string, unknown>) =>
  (await t.post('/calls/query_stats', { project_id: PROJECT, ...body })).body.count;

test('calls whose ids share a key are distinct: ends, renames, reads and filters reach only their own call', async () => {
  const [a, b] = twins();
  const trace = newId();
  for (const id of [a, b])
    assert.equal((await t.post('/call/start', { start: start({ id, trace_id: trace }) })).status, 200);
  assert.equal((await t.post('/call/end', { end: end(a, { output: 'a' }) })).status, 200);
  assert.equal((await t.post('/call/update', { project_id: PROJECT, call_id: b, display_name: 'only b' })).status, 200);

  const [ca, cb] = [await read(a), await read(b)];
  assert.equal(ca.output, 'a');
  assert.equal(ca.display_name ?? null, null);
  assert.equal(cb.ended_at ?? null, null);
  assert.equal(cb.display_name, 'only b');
  assert.deepEqual(await ids({ filter: { call_ids: [a] } }), [a]);
  assert.deepEqual(await ids({ query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: b }] } } }), [b]);
  assert.deepEqual(
    await ids({
      query: { $expr: { $not: [{ $eq: [{ $getField: 'id' }, { $literal: b }] }] } },
      filter: { trace_ids: [trace] },
    }),
    [a],
  );
  assert.equal(await count({ filter: { call_ids: [a, b] } }), 2);
});

test('children, traces and deletes follow full ids when parents and traces share keys', async () => {
  const [p1, p2] = twins();
  const [t1, t2] = twins();
  const c1 = newId();
  const c2 = newId();
  const batch = [
    start({ id: p1, trace_id: t1 }),
    start({ id: c1, trace_id: t1, parent_id: p1 }),
    start({ id: p2, trace_id: t2 }),
    start({ id: c2, trace_id: t2, parent_id: p2 }),
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
  await t.post('/call/start', {
    start: start({ id, trace_id: trace, inputs: { which: 'second' }, project_id: OTHER }),
  });
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

test('calls stay found while their ids move from the recent keys into the main ones (SQLite merges at 4,096)', async () => {
  const project = 'test-entity/id-merge-project';
  const trace = newId();
  // OTLP-like random hex ids, so the keys spread over the whole key space.
  const callIds = Array.from(
    { length: 5000 },
    (_, i) => `${((i * 2654435761) % 2 ** 32).toString(16).padStart(8, '0')}${newId().replace(/-/g, '').slice(-8)}`,
  );
  for (let i = 0; i < callIds.length; i += 500) {
    const batch = callIds
      .slice(i, i + 500)
      .map((id) => startItem(start({ id, trace_id: trace, project_id: project, inputs: { i } })));
    assert.equal((await t.post('/call/upsert_batch', { batch })).status, 200);
  }
  if (testEngine() === 'sqlite') {
    const db = new Database(join(t.dataDir, SQLITE_FILE), { readonly: true });
    try {
      const [main, recent, calls] = ['call_ids', 'call_ids_recent', 'calls'].map(
        (table) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number,
      );
      assert.ok(recent! < 4096, `${recent} recent keys: no merge happened`);
      assert.equal(main! + recent!, calls, 'every call has one key entry');
    } finally {
      db.close();
    }
  }
  // Ends, a retried start and a rename reach the calls merged and the calls not merged alike.
  for (let i = 0; i < callIds.length; i += 500) {
    const batch = callIds.slice(i, i + 500).map((id) => endItem(end(id, { output: id, project_id: project })));
    assert.equal((await t.post('/call/upsert_batch', { batch })).status, 200);
  }
  const [first, last] = [callIds[0]!, callIds.at(-1)!];
  await t.post('/call/start', { start: start({ id: first, trace_id: trace, project_id: project, inputs: { i: 0 } }) });
  assert.equal(
    (await t.post('/call/update', { project_id: project, call_id: last, display_name: 'last' })).status,
    200,
  );
  const stats = await t.post('/calls/query_stats', { project_id: project, filter: { trace_ids: [trace] } });
  assert.equal(stats.body.count, callIds.length);
  const ended = await t.post('/calls/stream_query', {
    project_id: project,
    filter: { trace_ids: [trace] },
    columns: ['id', 'output'],
  });
  const rows = ended.text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; output: string });
  assert.deepEqual(rows.map((r) => r.id).sort(), [...callIds].sort());
  assert.ok(
    rows.every((r) => r.output === r.id),
    'every end landed on its own call',
  );
  assert.equal((await read(last, project)).display_name, 'last');
  assert.equal((await t.post('/calls/delete', { project_id: project, call_ids: [first, last] })).status, 200);
  assert.equal(await read(first, project), null);
  assert.equal(
    (await t.post('/calls/query_stats', { project_id: project, filter: { call_ids: [first, last, callIds[1]!] } })).body
      .count,
    1,
  );
});
