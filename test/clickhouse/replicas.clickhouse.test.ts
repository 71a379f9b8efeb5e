// Several Weft servers on one ClickHouse database are replicas: what one acknowledged, the
// others read at once. Two apps here, each with its own store, client and caches, on one
// database; also the same call's parts written through both at the same moment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, bearer } from '../helpers/test-app.js';
import { end, endItem, start, startItem } from '../helpers/calls.js';
import { RETENTION_MAX_AGE_MS } from '../../src/service/calls/calls-service.js';

// Read when each test app starts.
process.env.WEFT_TEST_ENGINE = 'clickhouse';

const P = 'team/replicas';

test('a write through one replica is read through the other at once', async () => {
  const a = await startTestApp();
  const b = await startTestApp({ replicaOf: a });
  try {
    // Calls, and a rename and a delete made on the other replica.
    const s = start({ project_id: P, inputs: { q: 'x' } });
    const child = start({ project_id: P, trace_id: s.trace_id, parent_id: s.id });
    assert.equal(
      (
        await a.post('/call/upsert_batch', {
          batch: [
            startItem(s),
            startItem(child),
            endItem(end(s.id, { project_id: P })),
            endItem(end(child.id, { project_id: P })),
          ],
        })
      ).status,
      200,
    );
    const read = await b.post('/call/read', { project_id: P, id: s.id });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.call.inputs, { q: 'x' });
    assert.equal((await b.post('/call/update', { project_id: P, call_id: s.id, display_name: 'renamed' })).status, 200);
    assert.equal((await a.post('/call/read', { project_id: P, id: s.id })).body.call.display_name, 'renamed');
    assert.equal((await a.post('/calls/delete', { project_id: P, call_ids: [s.id] })).status, 200);
    assert.equal(
      (await b.post('/calls/query_stats', { project_id: P })).body.count,
      0,
      'the subtree is gone on the other replica',
    );

    // Objects, feedback, project settings.
    const obj = await a.post('/obj/create', { obj: { project_id: P, object_id: 'model', val: { temperature: 0.5 } } });
    assert.equal(obj.status, 200, obj.text);
    const got = await b.post('/obj/read', { project_id: P, object_id: 'model', digest: 'latest' });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body.obj.val, { temperature: 0.5 });
    const fb = await b.post('/feedback/create', {
      project_id: P,
      weave_ref: `weave:///${P}/object/model:${obj.body.digest}`,
      feedback_type: 'note',
      payload: { note: 'ok' },
    });
    assert.equal(fb.status, 200, fb.text);
    assert.equal((await a.post('/feedback/query', { project_id: P })).body.result.length, 1);
  } finally {
    await b.close();
    await a.close();
  }
});

test('a key created through one replica works on the other, and its role change and revocation count there at once', async () => {
  const a = await startTestApp({ keys: [{ user: 'admin', entity: 'team', role: 'admin', project: null }] });
  const b = await startTestApp({ replicaOf: a });
  try {
    const admin = a.keys[0]!.key;
    assert.equal((await b.post('/calls/query_stats', { project_id: P }, bearer(admin))).status, 200);
    assert.equal(
      (await b.post('/calls/query_stats', { project_id: P })).status,
      401,
      'the other replica sees that keys exist',
    );
    const write = (key: string) => b.post('/call/start', { start: start({ project_id: P }) }, bearer(key));

    const w = await a.post('/admin/keys/create', { user: 'wendy', entity: 'team', role: 'writer' }, bearer(admin));
    assert.equal(w.status, 200, w.text);
    assert.equal((await write(w.body.key)).status, 200, 'a writer through the other replica');
    // Made a reader through a: the role replaces the writer role on b's next request.
    assert.equal(
      (await a.post('/admin/keys/create', { user: 'wendy', entity: 'team', role: 'reader' }, bearer(admin))).status,
      200,
    );
    assert.equal((await write(w.body.key)).status, 403, 'the role change counts on the other replica');
    assert.equal((await b.post('/calls/query_stats', { project_id: P }, bearer(w.body.key))).status, 200);
    // Revoked through a: refused by b at once.
    assert.equal((await a.post('/admin/keys/revoke', { id: w.body.id }, bearer(admin))).status, 200);
    assert.equal(
      (await b.post('/calls/query_stats', { project_id: P }, bearer(w.body.key))).status,
      401,
      'the revocation counts on the other replica',
    );
  } finally {
    await b.close();
    await a.close();
  }
});

test("a call's start and end written through two replicas at the same moment make one complete call", async () => {
  const a = await startTestApp();
  const b = await startTestApp({ replicaOf: a });
  try {
    const starts = Array.from({ length: 40 }, () => start({ project_id: P, inputs: { n: 1 } }));
    // Each start through one replica while its end goes through the other, all at once.
    const replies = await Promise.all(
      starts.flatMap((s, i) => [
        (i % 2 ? a : b).post('/call/start', { start: s }),
        (i % 2 ? b : a).post('/call/end', { end: end(s.id, { project_id: P, output: `out ${i}` }) }),
      ]),
    );
    for (const r of replies) assert.equal(r.status, 200, r.text);
    for (const t of [a, b]) {
      const r = await t.post('/calls/query', { project_id: P, filter: { call_ids: starts.map((s) => s.id) } });
      assert.equal(r.body.calls.length, starts.length);
      for (const c of r.body.calls) {
        assert.deepEqual(c.inputs, { n: 1 });
        assert.match(String(c.output), /^out \d+$/, `call ${c.id} has its end`);
        assert.equal(c.summary.weave.status, 'success');
      }
    }
  } finally {
    await b.close();
    await a.close();
  }
});

test('an end through the replica that started the call keeps a rename and a deletion made meanwhile through the other', async () => {
  const a = await startTestApp();
  const b = await startTestApp({ replicaOf: a });
  try {
    // Replica a remembers the calls it started, and merges their ends with what it remembers.
    const renamed = start({ project_id: P, inputs: { n: 1 } });
    const deleted = start({ project_id: P, inputs: { n: 2 } });
    assert.equal((await a.post('/call/upsert_batch', { batch: [startItem(renamed), startItem(deleted)] })).status, 200);
    assert.equal(
      (await b.post('/call/update', { project_id: P, call_id: renamed.id, display_name: 'renamed on b' })).status,
      200,
    );
    assert.equal((await b.post('/calls/delete', { project_id: P, call_ids: [deleted.id] })).status, 200);
    const ends = [
      endItem(end(renamed.id, { project_id: P, output: 'done' })),
      endItem(end(deleted.id, { project_id: P, output: 'late' })),
    ];
    assert.equal((await a.post('/call/upsert_batch', { batch: ends })).status, 200);
    for (const t of [a, b]) {
      const r = await t.post('/call/read', { project_id: P, id: renamed.id });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.call.display_name, 'renamed on b');
      assert.equal(r.body.call.output, 'done');
      assert.deepEqual(r.body.call.inputs, { n: 1 });
      assert.equal(
        (await t.post('/calls/query_stats', { project_id: P, filter: { call_ids: [deleted.id] } })).body.count,
        0,
        'the deleted call stays deleted',
      );
    }
  } finally {
    await b.close();
    await a.close();
  }
});

test('a time-to-live set through one replica reaches its writes within RETENTION_MAX_AGE_MS, and its settings read at once', async () => {
  const a = await startTestApp();
  const b = await startTestApp({ replicaOf: a });
  const project = 'team/replica-ttl';
  const startedMs = Date.now() - 1000;
  const write = async () => {
    const s = start({ project_id: project, started_at: new Date(startedMs).toISOString() });
    const r = await b.post('/call/upsert_batch', {
      batch: [startItem(s), endItem(end(s.id, { project_id: project }))],
    });
    assert.equal(r.status, 200, r.text);
    return (await b.post('/call/read', { project_id: project, id: s.id })).body.call.expire_at as string | null;
  };
  const setTtl = async (days: number) =>
    assert.equal(
      (await a.post('/project/ttl_settings/update', { project_id: project, retention_days: days })).status,
      200,
    );
  try {
    // b writes first, so that it holds the answer "no time-to-live" when a changes it.
    assert.equal(await write(), null);
    await setTtl(3);
    // Past the age a write may use, b's writes carry the new time-to-live.
    await new Promise((r) => setTimeout(r, RETENTION_MAX_AGE_MS + 100));
    assert.equal(await write(), new Date(startedMs + 3 * 86_400_000).toISOString());
    // b now holds 3; the settings read answers a's next change at once all the same.
    await setTtl(5);
    assert.equal(
      (await b.post('/project/ttl_settings/read', { project_id: project })).body.retention_days,
      5,
      'the settings read is never stale',
    );
  } finally {
    await b.close();
    await a.close();
  }
});
