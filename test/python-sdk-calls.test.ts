// Calls from the newest Python SDK (calls_complete mode, its default): finished calls in
// batches to /v2/{entity}/{project}/calls/complete, eager ops (Evaluation.evaluate) as v2
// call/start + call/end, all under /traces. Then get_calls() with a filter and len(), as the
// SDK reads them back (each line must parse as its CallSchema), and the v1 routes acting on
// calls the v2 ones wrote.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { jsonl } from './helpers/calls.js';
import {
  pyCallsQuery,
  pyCompleted,
  pyEnd,
  pyFilter,
  pyHeaders,
  pyOpRef,
  pyStart,
  pyTime,
} from './helpers/python-sdk.js';

const P = 'acme/py-calls';
const V2 = `/traces/v2/${P}`;

/** What the SDK's CallSchema needs of every line of stream_query. */
function assertCallSchema(c: any) {
  for (const k of ['id', 'project_id', 'op_name', 'trace_id', 'started_at']) assert.equal(typeof c[k], 'string', k);
  assert.equal(typeof c.attributes, 'object');
  assert.equal(typeof c.inputs, 'object');
  assert.ok(!Number.isNaN(Date.parse(c.started_at)));
}

describe('open mode', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });
  const post = (path: string, body: unknown) => t.post(path, body, pyHeaders('any-key'));
  const stream = async (body: unknown) => {
    const r = await post('/traces/calls/stream_query', body);
    assert.equal(r.status, 200, r.text);
    const calls = jsonl(r.text);
    calls.forEach(assertCallSchema);
    return calls;
  };

  test('a nested tree with an exception, in one calls/complete batch, reads back whole', async () => {
    const t0 = Date.parse('2026-11-22T10:00:00Z');
    const root = pyCompleted(P, {
      op: pyOpRef(P, 'agent'),
      started_ms: t0,
      ended_ms: t0 + 900,
      inputs: { question: 'why?' },
      output: { answer: 'because' },
    });
    const child = pyCompleted(P, {
      trace_id: root.trace_id,
      parent_id: root.id,
      op: pyOpRef(P, 'llm'),
      started_ms: t0 + 10,
      ended_ms: t0 + 400,
      summary: {
        usage: { 'gpt-4o': { prompt_tokens: 12, completion_tokens: 3, requests: 1, cache_read_input_tokens: 2 } },
        status_counts: { success: 1, error: 0 },
      },
    });
    const failing = pyCompleted(P, {
      trace_id: root.trace_id,
      parent_id: root.id,
      op: pyOpRef(P, 'tool'),
      started_ms: t0 + 500,
      ended_ms: t0 + 600,
      exception: 'ValueError: tool broke',
      output: null,
      summary: null,
    });
    const r = await post(`${V2}/calls/complete`, { batch: [root, child, failing] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {});

    const calls = await stream(
      pyCallsQuery(P, {
        filter: pyFilter({ trace_ids: [root.trace_id] }),
        sort_by: [{ field: 'started_at', direction: 'asc' }],
      }),
    );
    assert.deepEqual(
      calls.map((c) => c.id),
      [root.id, child.id, failing.id],
    );
    assert.equal(calls[0].parent_id, null);
    assert.deepEqual(
      calls.slice(1).map((c) => c.parent_id),
      [root.id, root.id],
    );
    assert.deepEqual(calls[0].output, { answer: 'because' });
    assert.equal(calls[0].started_at, '2026-11-22T10:00:00.000123Z');
    assert.equal(calls[0].summary.weave.latency_ms, 900);
    assert.equal(calls[1].summary.usage['gpt-4o'].cache_read_input_tokens, 2);
    assert.equal(calls[2].exception, 'ValueError: tool broke');
    assert.equal(calls[2].summary.weave.status, 'error');
    assert.deepEqual(calls[0].attributes.weave.source, 'python-sdk');
    assert.equal(calls[0].wb_user_id, 'local-user', 'the server, not the client, names the user');
  });

  test('an eager op (Evaluation.evaluate): v2 start, children complete, v2 end carrying started_at and trace_id', async () => {
    const evalStart = pyStart(P, {
      op: pyOpRef(P, 'Evaluation.evaluate'),
      inputs: { self: 'weave:///acme/py-calls/object/Evaluation:abc', model: 'weave:///acme/py-calls/object/M:def' },
    });
    const started = await post(`${V2}/call/start`, { start: evalStart });
    assert.equal(started.status, 200, started.text);
    assert.deepEqual(started.body, { id: evalStart.id, trace_id: evalStart.trace_id });
    // While it runs the call is visible, unfinished.
    const running = (await stream(pyCallsQuery(P, { filter: pyFilter({ call_ids: [evalStart.id] }) })))[0];
    assert.equal(running.ended_at, null);
    assert.equal(running.summary.weave.status, 'running');
    const predict = pyCompleted(P, {
      trace_id: evalStart.trace_id,
      parent_id: evalStart.id,
      op: pyOpRef(P, 'Evaluation.predict_and_score'),
    });
    assert.equal((await post(`${V2}/calls/complete`, { batch: [predict] })).status, 200);
    const ended = await post(`${V2}/call/end`, { end: pyEnd(P, evalStart, { output: { accuracy: 0.5 } }) });
    assert.equal(ended.status, 200, ended.text);
    assert.deepEqual(ended.body, {});
    const done = await stream(pyCallsQuery(P, { filter: pyFilter({ trace_ids: [evalStart.trace_id] }) }));
    assert.equal(done.length, 2);
    assert.deepEqual(done.find((c) => c.id === evalStart.id).output, { accuracy: 0.5 });
    assert.equal(done.find((c) => c.id === evalStart.id).summary.weave.status, 'success');
  });

  test('get_calls(filter) and len(): stream_query and query_stats with every field of the request models', async () => {
    const op = pyOpRef(P, 'counted');
    const batch = Array.from({ length: 7 }, () => pyCompleted(P, { op }));
    assert.equal((await post(`${V2}/calls/complete`, { batch })).status, 200);
    const filter = pyFilter({ op_names: [op], trace_roots_only: true, input_refs: [] });
    const calls = await stream(
      pyCallsQuery(P, { filter, limit: 5, sort_by: [{ field: 'started_at', direction: 'desc' }] }),
    );
    assert.equal(calls.length, 5);
    const stats = await post('/traces/calls/query_stats', {
      project_id: P,
      filter,
      query: null,
      limit: null,
      include_total_storage_size: false,
      expand_columns: null,
    });
    assert.deepEqual(stats.body, { count: 7, total_storage_size_bytes: null });
  });

  test('v1 routes act on v2 calls and the other way round: update, delete, a v1 start ended by v2', async () => {
    const c = pyCompleted(P);
    assert.equal((await post(`${V2}/calls/complete`, { batch: [c] })).status, 200);
    assert.equal(
      (await post('/traces/call/update', { project_id: P, call_id: c.id, display_name: 'renamed', wb_user_id: null }))
        .status,
      200,
    );
    assert.equal((await post('/traces/call/read', { project_id: P, id: c.id })).body.call.display_name, 'renamed');
    const v1 = pyStart(P);
    assert.equal((await post('/traces/call/start', { start: v1 })).status, 200);
    assert.equal((await post(`${V2}/call/end`, { end: pyEnd(P, v1, { output: 'late' }) })).status, 200);
    const read = (await post('/traces/call/read', { project_id: P, id: v1.id })).body.call;
    assert.equal(read.output, 'late');
    assert.equal(read.started_at, v1.started_at, 'the start keeps its own started_at');
    assert.deepEqual(
      (await post('/traces/calls/delete', { project_id: P, call_ids: [c.id, v1.id], wb_user_id: null })).body,
      { num_deleted: 2 },
    );
    assert.equal((await post('/traces/call/read', { project_id: P, id: c.id })).body.call, null);
  });

  test('a retried batch is idempotent', async () => {
    const c = pyCompleted(P, { op: pyOpRef(P, 'retried') });
    for (let i = 0; i < 3; i++) assert.equal((await post(`${V2}/calls/complete`, { batch: [c] })).status, 200);
    const stats = await post('/traces/calls/query_stats', {
      project_id: P,
      filter: pyFilter({ op_names: [c.op_name] }),
    });
    assert.equal(stats.body.count, 1);
  });

  test('errors: another project in the path, malformed items, bad summaries, bad times; nothing written', async () => {
    const stray = pyCompleted('acme/elsewhere');
    const mismatch = await post(`${V2}/calls/complete`, { batch: [pyCompleted(P), stray] });
    assert.equal(mismatch.status, 400, mismatch.text);
    assert.match(mismatch.body.reason, /does not match the path's project "acme\/py-calls"/);
    assert.equal((await post(`${V2}/call/start`, { start: pyStart('acme/elsewhere') })).status, 400);
    const bad: [string, unknown][] = [
      [`${V2}/calls/complete`, { batch: [{ ...pyCompleted(P), ended_at: undefined }] }],
      [
        `${V2}/calls/complete`,
        { batch: [{ ...pyCompleted(P), summary: { usage: { m: { prompt_tokens: 'many' } } } }] },
      ],
      [`${V2}/calls/complete`, { batch: [{ ...pyCompleted(P), trace_id: null }] }],
      [`${V2}/calls/complete`, { batch: [pyCompleted(P)], extra: 1 }],
      [`${V2}/calls/complete`, { batch: 'x' }],
      [
        `${V2}/call/end`,
        { end: { ...pyEnd(P, { id: 'x', trace_id: 'y', started_at: pyTime(0) }), started_at: 'yesterday' } },
      ],
      [`${V2}/call/start`, { start: { ...pyStart(P), started_at: 7 } }],
    ];
    for (const [path, body] of bad) {
      const r = await post(path, body);
      assert.equal(r.status, 422, `${path}: ${r.text}`);
    }
    assert.equal(
      (await t.postRaw(`${V2}/calls/complete`, '{"batch": [', 'application/json', pyHeaders('k'))).status,
      400,
    );
    const stats = await post('/traces/calls/query_stats', { project_id: 'acme/elsewhere' });
    assert.equal(stats.body.count, 0);
    assert.equal(
      (await post('/traces/calls/query_stats', { project_id: P, filter: pyFilter({ call_ids: [stray.id] }) })).body
        .count,
      0,
    );
  });
});

describe('keys mode', () => {
  let t: TestApp;
  let writer: string, reader: string;
  before(async () => {
    t = await startTestApp({
      keys: [
        { user: 'wendy', entity: 'acme', role: 'writer' },
        { user: 'rita', entity: 'acme', role: 'reader' },
      ],
    });
    [writer, reader] = t.keys.map((k) => k.key) as [string, string];
  });
  after(async () => {
    await t.close();
  });

  test("a writer of the path's project writes; a reader, another entity or no key cannot, and nothing is stored", async () => {
    const c = pyCompleted(P);
    assert.equal((await t.post(`${V2}/calls/complete`, { batch: [c] }, pyHeaders(writer))).status, 200);
    const read = (await t.post('/traces/call/read', { project_id: P, id: c.id }, pyHeaders(reader))).body.call;
    assert.equal(read.wb_username, 'wendy');
    const other = pyCompleted('beta/p');
    for (const [path, key, body, status] of [
      [`${V2}/calls/complete`, reader, { batch: [pyCompleted(P)] }, 403],
      ['/traces/v2/beta/p/calls/complete', writer, { batch: [other] }, 403],
      [`${V2}/call/start`, reader, { start: pyStart(P) }, 403],
      [
        `${V2}/call/end`,
        reader,
        { end: pyEnd(P, { id: randomUUID(), trace_id: randomUUID(), started_at: pyTime(0) }) },
        403,
      ],
      [`${V2}/calls/complete`, null, { batch: [pyCompleted(P)] }, 401],
    ] as const) {
      const r = await t.post(path, body, pyHeaders(key));
      assert.equal(r.status, status, `${path}: ${r.text}`);
    }
    const count = await t.post('/traces/calls/query_stats', { project_id: P }, pyHeaders(reader));
    assert.equal(count.body.count, 1);
  });
});
