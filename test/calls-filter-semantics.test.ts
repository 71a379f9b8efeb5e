// CallsFilter through HTTP where Weave's own tests pin the meaning: an empty list is no
// constraint; a bare wb_run_id is a run of the request's project; $not over a comparison with
// a missing column keeps the row out; a call without an output yet reads its output fields as missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { end, endItem, jsonl, start, startItem } from './helpers/calls.js';

let t: TestApp;
const ids: string[] = [];
before(async () => {
  t = await startTestApp();
  // Distinct start times: the queries sort by started_at, and a tie has no defined order.
  const a = start({ wb_run_id: `${PROJECT}/run-1`, display_name: 'named', started_at: '2026-11-21T05:03:29.001Z' });
  const b = start({ wb_run_id: 'run-2', started_at: '2026-11-21T05:03:29.002Z' });
  const c = start({ started_at: '2026-11-21T05:03:29.003Z' });
  for (const s of [a, b, c]) ids.push(s.id);
  const r = await t.post('/call/upsert_batch', { batch: [a, b, c].flatMap((s) => [startItem(s), endItem(end(s.id))]) });
  assert.equal(r.status, 200, r.text);
});
after(async () => {
  await t.close();
});

const found = async (body: Record<string, unknown>) =>
  jsonl(
    (
      await t.post('/calls/stream_query', {
        project_id: PROJECT,
        sort_by: [{ field: 'started_at', direction: 'asc' }],
        ...body,
      })
    ).text,
  ).map((c) => ids.indexOf(c.id));

test('an empty list in any CallsFilter field but thread_ids is no constraint; query_stats agrees', async () => {
  for (const key of [
    'op_names',
    'input_refs',
    'output_refs',
    'parent_ids',
    'trace_ids',
    'call_ids',
    'turn_ids',
    'wb_user_ids',
    'wb_run_ids',
  ]) {
    assert.deepEqual(await found({ filter: { [key]: [] } }), [0, 1, 2], key);
    assert.equal(
      (await t.post('/calls/query_stats', { project_id: PROJECT, filter: { [key]: [] } })).body.count,
      3,
      key,
    );
  }
});

test('thread_ids: [] matches no call, as in Weave; query_stats agrees', async () => {
  assert.deepEqual(await found({ filter: { thread_ids: [] } }), []);
  const stats = await t.post('/calls/query_stats', { project_id: PROJECT, filter: { thread_ids: [] } });
  assert.equal(stats.status, 200);
  assert.equal(stats.body.count, 0);
});

test("a bare wb_run_id matches the run of the request's project, stored bare or in full", async () => {
  assert.deepEqual(await found({ filter: { wb_run_ids: ['run-1'] } }), [0]);
  assert.deepEqual(await found({ filter: { wb_run_ids: ['run-2'] } }), [1]);
  assert.deepEqual(await found({ filter: { wb_run_ids: [`${PROJECT}/run-1`] } }), [0]);
  assert.deepEqual(await found({ filter: { wb_run_ids: ['other/project/run-1'] } }), []);
});

test('$not over a comparison with a missing column leaves the row out', async () => {
  const notNamed = { $expr: { $not: [{ $eq: [{ $getField: 'display_name' }, { $literal: 'other' }] }] } };
  assert.deepEqual(await found({ query: notNamed }), [0], 'calls without a display name are neither equal nor unequal');
  const notInput = { $expr: { $not: [{ $eq: [{ $getField: 'inputs.missing' }, { $literal: 'x' }] }] } };
  assert.deepEqual(
    await found({ query: notInput }),
    [0, 1, 2],
    'a missing JSON field compares as "": its negation holds',
  );
});

test('a call without an output yet reads its output fields as missing: "is null" finds it, and it sorts with the calls lacking the field', async () => {
  const project = `${PROJECT}-running`;
  const at = (ms: number) => `2026-11-21T05:03:30.00${ms}Z`;
  const running = start({ project_id: project, started_at: at(1) });
  const valued = start({ project_id: project, started_at: at(2) });
  const lacking = start({ project_id: project, started_at: at(3) });
  const r = await t.post('/call/upsert_batch', {
    batch: [
      startItem(running),
      startItem(valued),
      startItem(lacking),
      endItem(end(valued.id, { project_id: project, output: { x: 5 } })),
      endItem(end(lacking.id, { project_id: project, output: { y: 1 } })),
    ],
  });
  assert.equal(r.status, 200, r.text);
  const names = new Map([
    [running.id, 'running'],
    [valued.id, 'valued'],
    [lacking.id, 'lacking'],
  ]);
  const query = async (body: Record<string, unknown>) =>
    jsonl((await t.post('/calls/stream_query', { project_id: project, ...body })).text).map((c) => names.get(c.id));
  const byStart = [{ field: 'started_at', direction: 'asc' }];
  const isNull = { $eq: [{ $getField: 'output.x' }, { $literal: null }] };
  assert.deepEqual(await query({ query: { $expr: isNull }, sort_by: byStart }), ['running', 'lacking']);
  assert.deepEqual(await query({ query: { $expr: { $not: [isNull] } }, sort_by: byStart }), ['valued']);
  assert.equal((await t.post('/calls/query_stats', { project_id: project, query: { $expr: isNull } })).body.count, 2);
  // Present values first in both directions; the two without it then in start order.
  for (const direction of ['asc', 'desc']) {
    assert.deepEqual(
      await query({
        sort_by: [
          { field: 'output.x', direction },
          { field: 'started_at', direction: 'asc' },
        ],
      }),
      ['valued', 'running', 'lacking'],
      direction,
    );
  }
});
