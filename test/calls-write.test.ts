// Call writes through HTTP: start/end in any order, batches, idempotent repeats, update, errors.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem, newId, opRef, jsonl } from './helpers/calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const read = async (id: string) => (await t.post('/call/read', { project_id: PROJECT, id })).body.call;

describe('/call/start and /call/end', () => {
  test('start answers the id and trace id; end answers {}', async () => {
    const s = start();
    const r = await t.post('/call/start', { start: s });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { id: s.id, trace_id: s.trace_id });
    const e = await t.post('/call/end', { end: end(s.id) });
    assert.equal(e.status, 200);
    assert.deepEqual(e.body, {});
    const c = await read(s.id);
    assert.equal(c.output, 42);
    assert.equal(c.summary.weave.status, 'success');
    assert.equal(c.summary.weave.latency_ms, 501);
  });

  test('a start without id or trace_id gets generated UUIDv7s', async () => {
    const { id: _i, trace_id: _t, ...rest } = start();
    const r = await t.post('/call/start', { start: rest });
    assert.equal(r.status, 200);
    assert.match(r.body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(r.body.trace_id, /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    assert.notEqual(r.body.id, r.body.trace_id);
  });

  test('an end before its start is kept, invisible until the start arrives', async () => {
    const s = start();
    assert.equal((await t.post('/call/end', { end: end(s.id, { output: 'early' }) })).status, 200);
    assert.equal(await read(s.id), null);
    await t.post('/call/start', { start: s });
    const c = await read(s.id);
    assert.equal(c.output, 'early');
    assert.ok(c.ended_at);
  });

  test('wb_user_id comes from the server, never from the client', async () => {
    const s = { ...start(), wb_user_id: 'mallory' };
    await t.post('/call/start', { start: s });
    assert.equal((await read(s.id)).wb_user_id, LOCAL_USER);
  });

  test('malformed bodies are 422 with FastAPI-shaped detail', async () => {
    const s = start();
    const missing = await t.post('/call/start', { start: { ...s, started_at: undefined } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.detail[0].loc, ['body', 'start', 'started_at']);
    assert.equal(missing.body.detail[0].type, 'missing');
    const badTime = await t.post('/call/start', { start: { ...s, started_at: 'yesterday' } });
    assert.equal(badTime.status, 422);
    const wrongType = await t.post('/call/start', { start: { ...s, inputs: [1, 2] } });
    assert.equal(wrongType.status, 422);
    const extraTop = await t.post('/call/start', { start: s, nope: 1 });
    assert.equal(extraTop.status, 422);
    assert.deepEqual(extraTop.body.detail[0].loc, ['body', 'nope']);
    const endNoSummary = await t.post('/call/end', {
      end: { project_id: PROJECT, id: s.id, ended_at: '2026-01-01T00:00:00Z' },
    });
    assert.equal(endNoSummary.status, 422);
  });

  test('malformed JSON and wrong content types are 4xx JSON, never 500', async () => {
    for (const payload of ['{"start": ', 'not json', '']) {
      const r = await t.postRaw('/call/start', payload);
      assert.ok(r.status >= 400 && r.status < 500, `status ${r.status} for ${JSON.stringify(payload)}`);
      assert.equal(typeof r.body.reason, 'string');
    }
    const r = await t.postRaw('/call/start', 'a=b', 'application/x-www-form-urlencoded');
    assert.ok(r.status >= 400 && r.status < 500);
    assert.ok(r.body);
  });

  test('over-long display names and ids are 400', async () => {
    const long = await t.post('/call/start', { start: start({ display_name: 'x'.repeat(1025) }) });
    assert.equal(long.status, 400);
    assert.match(long.body.reason, /display_name/);
    const badId = await t.post('/call/start', { start: { ...start(), id: 'a'.repeat(200) } });
    assert.equal(badId.status, 400);
  });
});

describe('/call/upsert_batch', () => {
  test('children before parents, ends before starts, in one batch, as the SDK sends them', async () => {
    const root = start({ op: opRef('parent'), inputs: { x: 21, label: 'first' } });
    const a = start({ trace_id: root.trace_id, parent_id: root.id, op: opRef('childA') });
    const b = start({ trace_id: root.trace_id, parent_id: root.id, op: opRef('childB') });
    const r = await t.post('/call/upsert_batch', {
      batch: [
        startItem(a),
        endItem(end(a.id)),
        startItem(root),
        endItem(end(b.id, { output: null, exception: 'childB failed on 21' })),
        startItem(b),
      ],
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.res.length, 5);
    assert.deepEqual(r.body.res[0], { id: a.id, trace_id: root.trace_id });
    assert.deepEqual(r.body.res[1], {});
    await t.post('/call/upsert_batch', {
      batch: [endItem(end(root.id, { summary: { status_counts: { error: 1 } } }))],
    });
    const q = await t.post('/calls/stream_query', { project_id: PROJECT, filter: { trace_ids: [root.trace_id] } });
    const calls = jsonl(q.text);
    assert.equal(calls.length, 3);
    const byId = new Map(calls.map((c) => [c.id, c]));
    assert.equal(byId.get(root.id).summary.weave.status, 'descendant_error');
    assert.equal(byId.get(a.id).summary.weave.status, 'success');
    assert.equal(byId.get(b.id).summary.weave.status, 'error');
    assert.equal(byId.get(b.id).exception, 'childB failed on 21');
    assert.equal(byId.get(a.id).parent_id, root.id);
    assert.equal(byId.get(a.id).summary.weave.trace_name, 'childA');
  });

  test('repeating an identical batch (SDK retry) changes nothing', async () => {
    const s = start();
    const body = { batch: [startItem(s), endItem(end(s.id, { output: { answer: 1 } }))] };
    await t.post('/call/upsert_batch', body);
    const first = await read(s.id);
    assert.equal((await t.post('/call/upsert_batch', body)).status, 200);
    assert.deepEqual(await read(s.id), first);
    const stats = await t.post('/calls/query_stats', { project_id: PROJECT, filter: { call_ids: [s.id] } });
    assert.equal(stats.body.count, 1);
  });

  test('unknown keys inside parts are ignored (the SDK sends display_name in ends)', async () => {
    const s = start({ display_name: 'named(a)' });
    const e = { ...end(s.id), display_name: 'named(a)', something_new: true };
    const r = await t.post('/call/upsert_batch', {
      batch: [startItem({ ...s, future_field: 1 } as never), endItem(e as never)],
    });
    assert.equal(r.status, 200);
    const c = await read(s.id);
    assert.equal(c.display_name, 'named(a)');
    assert.equal(c.summary.weave.display_name, 'named(a)');
  });

  test('mode is inferred when absent; an unknown mode is 400 and nothing of the batch is written', async () => {
    const s = start();
    const ok = await t.post('/call/upsert_batch', { batch: [{ req: { start: s } }, { req: { end: end(s.id) } }] });
    assert.equal(ok.status, 200);
    assert.ok(await read(s.id));
    const s2 = start();
    const bad = await t.post('/call/upsert_batch', { batch: [startItem(s2), { mode: 'middle', req: { start: s2 } }] });
    assert.equal(bad.status, 400);
    assert.match(bad.body.reason, /Invalid mode/);
    assert.equal(await read(s2.id), null);
    const mismatch = await t.post('/call/upsert_batch', { batch: [{ mode: 'end', req: { start: s2 } }] });
    assert.equal(mismatch.status, 400);
  });

  test('a batch item with a malformed start is 422 pointing at the item', async () => {
    const r = await t.post('/call/upsert_batch', {
      batch: [{ mode: 'start', req: { start: { project_id: PROJECT } } }],
    });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.detail[0].loc.slice(0, 4), ['body', 'batch', 0, 'req']);
  });

  test('concurrent batches (committed together) are each acknowledged and all stored', async () => {
    const batches = Array.from({ length: 20 }, (_, i) => {
      const s = start({ inputs: { batch: i } });
      return { s, body: { batch: [startItem(s), endItem(end(s.id, { output: i }))] } };
    });
    const replies = await Promise.all(batches.map((b) => t.post('/call/upsert_batch', b.body)));
    assert.ok(replies.every((r) => r.status === 200));
    for (const { s } of batches) {
      const c = await read(s.id);
      assert.equal(c.output, c.inputs.batch);
    }
  });

  test('bodies past the limit are 413 with a JSON body', async () => {
    const small = await startTestApp({ bodyLimit: 1024 });
    try {
      const r = await small.post('/call/upsert_batch', {
        batch: [startItem(start({ inputs: { big: 'x'.repeat(5000) } }))],
      });
      assert.equal(r.status, 413);
      assert.equal(r.body.reason, 'Request too large');
    } finally {
      await small.close();
    }
  });

  test('a 12 MiB batch is accepted with the default limit', async () => {
    const items = [];
    for (let i = 0; i < 12; i++) items.push(startItem(start({ inputs: { blob: 'y'.repeat(1024 * 1024) } })));
    const r = await t.post('/call/upsert_batch', { batch: items });
    assert.equal(r.status, 200);
    assert.equal(r.body.res.length, 12);
  });
});

describe('/call/update', () => {
  test('sets the display name; a later retried start does not undo it', async () => {
    const s = start({ display_name: 'before' });
    await t.post('/call/start', { start: s });
    assert.equal(
      (await t.post('/call/update', { project_id: PROJECT, call_id: s.id, display_name: 'after' })).status,
      200,
    );
    assert.equal((await read(s.id)).display_name, 'after');
    await t.post('/call/start', { start: s });
    assert.equal((await read(s.id)).display_name, 'after');
  });

  test('an unknown call is not an error; a null display_name is 400; extra keys 422', async () => {
    assert.equal(
      (await t.post('/call/update', { project_id: PROJECT, call_id: newId(), display_name: 'x' })).status,
      200,
    );
    const r = await t.post('/call/update', { project_id: PROJECT, call_id: newId(), display_name: null });
    assert.equal(r.status, 400);
    assert.match(r.body.reason, /display_name/);
    assert.equal(
      (await t.post('/call/update', { project_id: PROJECT, call_id: newId(), display_name: 'x', color: 'red' })).status,
      422,
    );
  });
});
