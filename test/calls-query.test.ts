// /calls/stream_query, /calls/query and /calls/query_stats through HTTP: every CallsFilter
// field, the $expr language on columns and JSON paths, sorting, columns, feedback.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem, opRef, jsonl } from './helpers/calls.js';

let t: TestApp;
const ids: Record<string, string> = {};
const trace = { a: '', b: '' };

async function ids_of(body: Record<string, unknown>): Promise<string[]> {
  const r = await t.post('/calls/stream_query', { project_id: PROJECT, ...body });
  assert.equal(r.status, 200, r.text);
  return jsonl(r.text).map((c) => c.id);
}
const names = (list: string[]) => list.map((id) => Object.keys(ids).find((k) => ids[k] === id));

before(async () => {
  t = await startTestApp();
  const root = start({
    op: opRef('evaluate', 'v1digest'),
    started_at: '2026-01-01T00:00:00Z',
    inputs: { model: `weave:///${PROJECT}/object/model:abc`, n: 10 },
    thread_id: 'th1',
    turn_id: 'tu1',
    wb_run_id: 'e/p/run1',
  });
  trace.a = root.trace_id;
  const c1 = start({
    trace_id: root.trace_id,
    parent_id: root.id,
    op: opRef('predict', 'v1digest'),
    started_at: '2026-01-01T00:00:01Z',
    inputs: { q: 'Capital of France?', n: 2, flag: true },
  });
  const c2 = start({
    trace_id: root.trace_id,
    parent_id: root.id,
    op: opRef('predict', 'v2digest'),
    started_at: '2026-01-01T00:00:02Z',
    inputs: { q: 'capital of SPAIN', n: 9.5, flag: false },
  });
  const c3 = start({
    trace_id: root.trace_id,
    parent_id: c1.id,
    op: opRef('score'),
    started_at: '2026-01-01T00:00:03Z',
    inputs: { q: 'x' },
    thread_id: 'th2',
  });
  const other = start({ op: 'plain_op', started_at: '2026-01-01T00:00:04Z', inputs: {}, display_name: 'Shown' });
  trace.b = other.trace_id;
  Object.assign(ids, { root: root.id, c1: c1.id, c2: c2.id, c3: c3.id, other: other.id });
  const r = await t.post('/call/upsert_batch', {
    batch: [
      startItem(root),
      startItem(c1),
      startItem(c2),
      startItem(c3),
      startItem(other),
      endItem(
        end(c1.id, {
          ended_at: '2026-01-01T00:00:01.500Z',
          output: { answer: 'Paris', ref: `weave:///${PROJECT}/object/answer:d1` },
        }),
      ),
      endItem(end(c2.id, { ended_at: '2026-01-01T00:00:05Z', output: null, exception: 'boom' })),
      endItem(
        end(root.id, {
          ended_at: '2026-01-01T00:00:10Z',
          summary: { status_counts: { error: 1 }, usage: { m: { requests: 2 } } },
        }),
      ),
      endItem(end(other.id, { ended_at: '2026-01-01T00:00:04.010Z', output: 'done' })),
    ],
  });
  assert.equal(r.status, 200);
});
after(async () => {
  await t.close();
});

describe('stream_query format', () => {
  test('answers JSON Lines, one call per line, default order started_at asc', async () => {
    const r = await t.post('/calls/stream_query', { project_id: PROJECT });
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /application\/jsonl/);
    assert.ok(r.text.endsWith('\n'));
    assert.deepEqual(names(jsonl(r.text).map((c) => c.id)), ['root', 'c1', 'c2', 'c3', 'other']);
  });

  test('the TS SDK request shape works: filter, include_costs, limit', async () => {
    const got = await ids_of({ filter: { call_ids: [ids.c1] }, include_costs: false, limit: 1000 });
    assert.deepEqual(got, [ids.c1]);
  });

  test('/calls/query is the JSON twin', async () => {
    const r = await t.post('/calls/query', { project_id: PROJECT, filter: { trace_roots_only: true } });
    assert.equal(r.status, 200);
    assert.deepEqual(names(r.body.calls.map((c: { id: string }) => c.id)), ['root', 'other']);
  });

  test('an empty project streams an empty body', async () => {
    const r = await t.post('/calls/stream_query', { project_id: 'nobody/nothing' });
    assert.equal(r.status, 200);
    assert.equal(r.text, '');
  });
});

describe('CallsFilter', () => {
  test('op_names exact and with the :* version wildcard', async () => {
    assert.deepEqual(names(await ids_of({ filter: { op_names: [opRef('predict', 'v1digest')] } })), ['c1']);
    assert.deepEqual(names(await ids_of({ filter: { op_names: [`weave:///${PROJECT}/op/predict:*`] } })), ['c1', 'c2']);
    assert.deepEqual(names(await ids_of({ filter: { op_names: ['plain_op'] } })), ['other']);
  });
  test('input_refs and output_refs', async () => {
    assert.deepEqual(names(await ids_of({ filter: { input_refs: [`weave:///${PROJECT}/object/model:abc`] } })), [
      'root',
    ]);
    assert.deepEqual(names(await ids_of({ filter: { input_refs: [`weave:///${PROJECT}/object/model:*`] } })), ['root']);
    assert.deepEqual(names(await ids_of({ filter: { output_refs: [`weave:///${PROJECT}/object/answer:d1`] } })), [
      'c1',
    ]);
  });
  test('parent_ids, trace_ids, call_ids, thread_ids, turn_ids, wb_user_ids, wb_run_ids, trace_roots_only', async () => {
    assert.deepEqual(names(await ids_of({ filter: { parent_ids: [ids.root!] } })), ['c1', 'c2']);
    assert.deepEqual(names(await ids_of({ filter: { trace_ids: [trace.b] } })), ['other']);
    assert.deepEqual(names(await ids_of({ filter: { call_ids: [ids.c3!, ids.c2!] } })), ['c2', 'c3']);
    assert.deepEqual(names(await ids_of({ filter: { thread_ids: ['th2'] } })), ['c3']);
    assert.deepEqual(names(await ids_of({ filter: { turn_ids: ['tu1'] } })), ['root']);
    assert.equal((await ids_of({ filter: { wb_user_ids: [LOCAL_USER] } })).length, 5);
    assert.equal((await ids_of({ filter: { wb_user_ids: ['someone-else'] } })).length, 0);
    assert.deepEqual(names(await ids_of({ filter: { wb_run_ids: ['e/p/run1'] } })), ['root']);
    assert.deepEqual(names(await ids_of({ filter: { trace_roots_only: true } })), ['root', 'other']);
    assert.equal((await ids_of({ filter: { trace_roots_only: false } })).length, 5);
  });
  test('a list longer than 1000 is 400; an unknown filter key is 422', async () => {
    const big = await t.post('/calls/stream_query', {
      project_id: PROJECT,
      filter: { call_ids: Array.from({ length: 1001 }, (_, i) => `id${i}`) },
    });
    assert.equal(big.status, 400);
    const unknown = await t.post('/calls/stream_query', { project_id: PROJECT, filter: { colour: ['red'] } });
    assert.equal(unknown.status, 422);
  });
});

describe('$expr', () => {
  const q = (expr: unknown) => ids_of({ query: { $expr: expr } });
  test('comparisons on JSON paths, with and without $convert', async () => {
    assert.deepEqual(names(await q({ $eq: [{ $getField: 'inputs.q' }, { $literal: 'x' }] })), ['c3']);
    assert.deepEqual(
      names(await q({ $gt: [{ $convert: { input: { $getField: 'inputs.n' }, to: 'double' } }, { $literal: 5 }] })),
      ['root', 'c2'],
    );
    assert.deepEqual(names(await q({ $lt: [{ $getField: 'inputs.n' }, { $literal: 5 }] })), ['c1']);
    assert.deepEqual(names(await q({ $lte: [{ $getField: 'inputs.n' }, { $literal: 10 }] })), ['root', 'c1', 'c2']);
    assert.deepEqual(names(await q({ $eq: [{ $getField: 'inputs.flag' }, { $literal: 'true' }] })), ['c1']);
  });
  test('$contains is case-insensitive on request; $in, $not, $and, $or', async () => {
    assert.deepEqual(
      names(
        await q({
          $contains: { input: { $getField: 'inputs.q' }, substr: { $literal: 'capital' }, case_insensitive: true },
        }),
      ),
      ['c1', 'c2'],
    );
    assert.deepEqual(
      names(await q({ $contains: { input: { $getField: 'inputs.q' }, substr: { $literal: 'capital' } } })),
      ['c2'],
    );
    assert.deepEqual(names(await q({ $in: [{ $getField: 'id' }, [{ $literal: ids.c1 }, { $literal: ids.other }]] })), [
      'c1',
      'other',
    ]);
    assert.deepEqual(
      names(
        await q({
          $and: [
            { $not: [{ $eq: [{ $getField: 'parent_id' }, { $literal: null }] }] },
            {
              $or: [
                { $eq: [{ $getField: 'inputs.q' }, { $literal: 'x' }] },
                { $eq: [{ $getField: 'exception' }, { $literal: 'boom' }] },
              ],
            },
          ],
        }),
      ),
      ['c2', 'c3'],
    );
  });
  test('computed fields: status, latency, trace_name; datetime columns', async () => {
    assert.deepEqual(names(await q({ $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] })), ['c2']);
    assert.deepEqual(names(await q({ $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'running' }] })), ['c3']);
    assert.deepEqual(
      names(await q({ $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'descendant_error' }] })),
      ['root'],
    );
    assert.deepEqual(names(await q({ $gte: [{ $getField: 'summary.weave.latency_ms' }, { $literal: 3000 }] })), [
      'root',
      'c2',
    ]);
    assert.deepEqual(names(await q({ $eq: [{ $getField: 'summary.weave.trace_name' }, { $literal: 'Shown' }] })), [
      'other',
    ]);
    assert.deepEqual(names(await q({ $gt: [{ $getField: 'started_at' }, { $literal: '2026-01-01T00:00:02.500Z' }] })), [
      'c3',
      'other',
    ]);
  });
  test('malformed expressions are 400 and unknown fields 422, as JSON', async () => {
    const bad = await t.post('/calls/stream_query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'id' }] } },
    });
    assert.equal(bad.status, 400);
    assert.equal(typeof bad.body.reason, 'string');
    const empty = await t.post('/calls/stream_query', { project_id: PROJECT, query: { $expr: { $and: [] } } });
    assert.equal(empty.status, 400);
    const field = await t.post('/calls/stream_query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'no_such_column' }, { $literal: 1 }] } },
    });
    assert.equal(field.status, 422);
    const op = await t.post('/calls/stream_query', { project_id: PROJECT, query: { $expr: { $regex: ['a', 'b'] } } });
    assert.equal(op.status, 400);
  });
});

describe('sort, paging, columns, stats', () => {
  test('sort on columns and JSON paths, NULLs last both ways', async () => {
    assert.deepEqual(names(await ids_of({ sort_by: [{ field: 'started_at', direction: 'desc' }] })), [
      'other',
      'c3',
      'c2',
      'c1',
      'root',
    ]);
    assert.deepEqual(names(await ids_of({ sort_by: [{ field: 'inputs.n', direction: 'asc' }] })), [
      'c1',
      'c2',
      'root',
      'c3',
      'other',
    ]);
    // c3 and other both lack inputs.n: the id tiebreak follows the last term's direction.
    assert.deepEqual(names(await ids_of({ sort_by: [{ field: 'inputs.n', direction: 'desc' }] })), [
      'root',
      'c2',
      'c1',
      'other',
      'c3',
    ]);
    const bad = await t.post('/calls/stream_query', {
      project_id: PROJECT,
      sort_by: [{ field: 'bogus', direction: 'asc' }],
    });
    assert.equal(bad.status, 422);
    const dir = await t.post('/calls/stream_query', {
      project_id: PROJECT,
      sort_by: [{ field: 'id', direction: 'DESC' }],
    });
    assert.equal(dir.status, 422);
  });
  test('limit and offset', async () => {
    assert.deepEqual(names(await ids_of({ limit: 2 })), ['root', 'c1']);
    assert.deepEqual(names(await ids_of({ limit: 2, offset: 3 })), ['c3', 'other']);
    assert.equal((await t.post('/calls/stream_query', { project_id: PROJECT, limit: -1 })).status, 422);
  });
  test('columns: unselected object columns are {}, others null; required columns kept', async () => {
    const r = await t.post('/calls/stream_query', {
      project_id: PROJECT,
      filter: { call_ids: [ids.c1] },
      columns: ['inputs.q'],
    });
    const [c] = jsonl(r.text);
    assert.deepEqual(c.inputs, { q: 'Capital of France?', n: 2, flag: true });
    assert.deepEqual(c.attributes, {});
    assert.equal(c.output, null);
    assert.equal(c.id, ids.c1);
    assert.ok(c.started_at);
    assert.equal(c.op_name, opRef('predict', 'v1digest'));
  });
  test('query_stats counts what stream_query returns', async () => {
    const r = await t.post('/calls/query_stats', {
      project_id: PROJECT,
      filter: { trace_ids: [trace.a] },
      query: { $expr: { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'success' }] } },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.count, 1);
    const all = await t.post('/calls/query_stats', { project_id: PROJECT, include_total_storage_size: true });
    assert.equal(all.body.count, 5);
    assert.ok(all.body.total_storage_size_bytes > 0);
    assert.equal((await t.post('/calls/query_stats', { project_id: PROJECT, limit: 2 })).body.count, 2);
    assert.equal((await t.post('/calls/query_stats', { project_id: PROJECT, limit: 0 })).status, 400);
    assert.equal((await t.post('/calls/query_stats', { project_id: PROJECT, sort_by: [] })).status, 422);
  });
});
