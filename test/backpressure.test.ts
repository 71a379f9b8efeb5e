// Backpressure on ingest: when more call bytes wait to be written than ingestQueueBytes,
// /call/upsert_batch, /call/start, /call/end and the v2 call routes answer 503 with Retry-After and write
// nothing; whatever was acknowledged is committed and readable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { end, endItem, start, startItem } from './helpers/calls.js';
import { clickhouseGate } from './helpers/clickhouse-engine.js';
import { holdWrites } from './helpers/hold-writes.js';

const P = 'bp/project';

function batchOf(n: number, payloadBytes: number) {
  const starts = Array.from({ length: n }, () => start({ project_id: P, inputs: { text: 'x'.repeat(payloadBytes) } }));
  return {
    ids: starts.map((s) => s.id),
    body: { batch: starts.flatMap((s) => [startItem(s), endItem(end(s.id, { project_id: P }))]) },
  };
}

const count = async (t: TestApp, ids: string[]) => {
  const r = await t.post('/calls/query_stats', { project_id: P, filter: { call_ids: ids } });
  assert.equal(r.status, 200, r.text);
  return r.body.count as number;
};

function assert503(r: { status: number; headers: Record<string, unknown>; body: any; text: string }, retryAfter = 1) {
  assert.equal(r.status, 503, r.text);
  assert.equal(r.headers['retry-after'], String(retryAfter));
  assert.match(String(r.headers['content-type']), /application\/json/);
  assert.equal(r.body.error_code, 'UNAVAILABLE');
  assert.equal(r.body.retry_after, retryAfter);
  assert.equal(typeof r.body.reason, 'string');
}

test('a write while a commit is stuck gets 503 + Retry-After on every ingest route, and is not written', async () => {
  const t = await startTestApp({ ingestQueueBytes: 1 });
  // The call writer's commit waits.
  const release = holdWrites(t);
  try {
    const first = batchOf(3, 1000);
    const pending = t.post('/call/upsert_batch', first.body);
    // Let the first batch reach the writer: it is now waiting to be written.
    await new Promise((r) => setTimeout(r, 100));

    const second = batchOf(2, 10);
    assert503(await t.post('/call/upsert_batch', second.body));
    const s = start({ project_id: P });
    assert503(await t.post('/call/start', { start: s }));
    assert503(await t.post('/call/end', { end: end(s.id, { project_id: P }) }));
    // The Python SDK's v2 routes too.
    assert503(
      await t.post(`/v2/${P}/calls/complete`, { batch: [{ ...s, ended_at: s.started_at, output: 1, summary: null }] }),
    );
    assert503(await t.post(`/traces/v2/${P}/call/start`, { start: s }));
    assert503(
      await t.post(`/v2/${P}/call/end`, { end: { ...end(s.id, { project_id: P }), started_at: s.started_at } }),
    );
    // Reads are not affected.
    assert.equal((await t.post('/calls/query_stats', { project_id: P })).status, 200);

    release();
    const r = await pending;
    assert.equal(r.status, 200, 'the queued batch is acknowledged once committed');
    assert.equal(await count(t, first.ids), 3);
    assert.equal(await count(t, [...second.ids, s.id]), 0, 'refused writes wrote nothing');

    // With the queue drained, the retried writes go through.
    assert.equal((await t.post('/call/upsert_batch', second.body)).status, 200);
    assert.equal((await t.post('/call/start', { start: s })).status, 200);
    assert.equal(await count(t, [...second.ids, s.id]), 3);
  } finally {
    release();
    await t.close();
  }
});

test('one batch larger than the limit is still accepted when nothing waits', async () => {
  const t = await startTestApp({ ingestQueueBytes: 1 });
  try {
    for (let i = 0; i < 3; i++) {
      const b = batchOf(5, 20_000);
      const r = await t.post('/call/upsert_batch', b.body);
      assert.equal(r.status, 200, r.text);
      assert.equal(await count(t, b.ids), 5);
    }
  } finally {
    await t.close();
  }
});

test('concurrent big batches under a small limit: every acknowledged call is stored, refused ones retried', async () => {
  const t = await startTestApp({ ingestQueueBytes: 64 * 1024 });
  try {
    const batches = Array.from({ length: 8 }, () => batchOf(20, 20_000));
    const replies = await Promise.all(batches.map((b) => t.post('/call/upsert_batch', b.body)));
    const accepted = batches.filter((_, i) => replies[i]!.status === 200);
    const refused = batches.filter((_, i) => replies[i]!.status !== 200);
    for (const r of replies) if (r.status !== 200) assert503(r);
    assert.ok(accepted.length >= 1, 'the first batch is always let through');
    assert.equal(
      await count(
        t,
        accepted.flatMap((b) => b.ids),
      ),
      accepted.length * 20,
      'nothing acknowledged is lost',
    );
    assert.equal(
      await count(
        t,
        refused.flatMap((b) => b.ids),
      ),
      0,
      'nothing refused is half-written',
    );

    // Clients retry after Retry-After: eventually everything is stored exactly once.
    let todo = refused;
    for (let round = 0; todo.length > 0 && round < 50; round++) {
      const again = await Promise.all(todo.map((b) => t.post('/call/upsert_batch', b.body)));
      todo = todo.filter((_, i) => again[i]!.status !== 200);
    }
    assert.equal(todo.length, 0);
    assert.equal((await t.post('/calls/query_stats', { project_id: P })).body.count, 8 * 20);
  } finally {
    await t.close();
  }
});

// SQLite: another process keeps the database locked past the busy timeout. ClickHouse: the
// server cannot be reached (then clients are told to wait longer).
test('a database that cannot take writes now: writes answer 503 and write nothing', { timeout: 30_000 }, async () => {
  const t = await startTestApp();
  const gate = clickhouseGate(t.store);
  const blocker = gate === null ? new Database(join(t.dataDir, 'weft.sqlite')) : null;
  try {
    blocker?.exec('BEGIN IMMEDIATE');
    gate?.down();
    const s = start({ project_id: P });
    const [obj, call] = await Promise.all([
      t.post('/obj/create', { obj: { project_id: P, object_id: 'o', val: { a: 1 } } }),
      t.post('/call/start', { start: s }),
    ]);
    assert503(obj, gate === null ? 1 : 5);
    assert503(call, gate === null ? 1 : 5);
    blocker?.exec('COMMIT');
    gate?.up();
    assert.equal(await count(t, [s.id]), 0);
    assert.equal((await t.post('/objs/query', { project_id: P })).body.objs.length, 0);
    assert.equal((await t.post('/call/start', { start: s })).status, 200, 'the retry goes through');
    assert.equal(await count(t, [s.id]), 1);
  } finally {
    if (blocker?.inTransaction) blocker.exec('ROLLBACK');
    blocker?.close();
    gate?.up();
    await t.close();
  }
});
