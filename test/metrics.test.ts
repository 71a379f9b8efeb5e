// GET /metrics moves with traffic: every scrape parses with a strict Prometheus text parser,
// and the counters, histograms and gauges follow what the test does through the HTTP API
// (requests by route pattern and status, body bytes, calls / objects / feedback written, the
// ingest queue and its 503s, commits, the database size, retention deletions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROJECT, startTestApp, type TestApp } from './helpers/test-app.js';
import { end, endItem, start, startItem } from './helpers/calls.js';
import { holdWrites } from './helpers/hold-writes.js';
import { parsePrometheusText, sampleSum, type Family } from './helpers/prometheus-text.js';

type Scrape = Map<string, Family>;

async function scrape(t: TestApp): Promise<Scrape> {
  const r = await t.get('/metrics');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(r.text);
}

/** An upsert_batch body of `n` whole calls. */
const batchOf = (n: number, starts = Array.from({ length: n }, () => start())) => ({
  batch: starts.flatMap((s) => [startItem(s), endItem(end(s.id))]),
});

const UPSERT = { method: 'POST', route: '/call/upsert_batch', status: '200' };

test('the exposition: every Weft family typed and described, Node process metrics included', async () => {
  const t = await startTestApp();
  try {
    const m = await scrape(t);
    const expected: Record<string, string> = {
      weft_http_requests_total: 'counter',
      weft_http_request_duration_seconds: 'histogram',
      weft_http_request_bytes_total: 'counter',
      weft_http_response_bytes_total: 'counter',
      weft_calls_written_total: 'counter',
      weft_objects_written_total: 'counter',
      weft_feedback_written_total: 'counter',
      weft_ingest_queue_bytes: 'gauge',
      weft_ingest_queue_limit_bytes: 'gauge',
      weft_ingest_rejected_total: 'counter',
      weft_writer_commit_seconds: 'histogram',
      weft_database_size_bytes: 'gauge',
      weft_retention_deleted_calls_total: 'counter',
      weft_spans_written_total: 'counter',
      weft_retention_deleted_spans_total: 'counter',
    };
    for (const [name, type] of Object.entries(expected)) {
      assert.equal(m.get(name)?.type, type, name);
      assert.ok(m.get(name)?.help, `${name} has a HELP`);
    }
    for (const f of m.values())
      if (f.name.startsWith('weft_')) assert.ok(f.name in expected, `unexpected family ${f.name}`);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      assert.ok(m.has(name), `${name} is exposed`);
    }
    assert.ok(sampleSum(m, 'weft_database_size_bytes') > 0, 'the database has a size');
  } finally {
    await t.close();
  }
});

test('requests, bytes, writes and commits move with traffic; routes are patterns', async () => {
  const t = await startTestApp();
  try {
    const before = await scrape(t);
    const first = start();
    const body = batchOf(3, [first, start(), start()]);
    const up = await t.post('/call/upsert_batch', body);
    assert.equal(up.status, 200, up.text);
    const obj = await t.post('/obj/create', { obj: { project_id: PROJECT, object_id: 'metered', val: { a: 1 } } });
    assert.equal(obj.status, 200, obj.text);
    const ref = `weave:///${PROJECT}/call/${first.id}`;
    const note = (n: string) => ({ project_id: PROJECT, weave_ref: ref, feedback_type: 'note', payload: { note: n } });
    assert.equal((await t.post('/feedback/create', note('one'))).status, 200);
    assert.equal((await t.post('/feedback/batch/create', { batch: [note('two'), note('three')] })).status, 200);
    const digest = obj.body.digest as string;
    // A URL with ids in it counts under its route's pattern.
    assert.equal(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/objs/metered/versions/${digest}/tags`,
          payload: { project_id: PROJECT, tags: ['x'] },
        })
      ).statusCode,
      200,
    );
    assert.equal((await t.get('/no/such/route-abc')).status, 404);
    assert.equal((await t.post('/calls/stream_query', { project_id: PROJECT })).status, 200);
    const after = await scrape(t);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);

    assert.equal(delta('weft_http_requests_total', UPSERT), 1);
    assert.equal(delta('weft_http_request_duration_seconds_count', UPSERT), 1);
    assert.equal(delta('weft_http_request_duration_seconds_bucket', { ...UPSERT, le: '+Inf' }), 1);
    assert.ok(delta('weft_http_request_duration_seconds_sum', UPSERT) > 0);
    assert.equal(
      delta('weft_http_request_bytes_total', { method: 'POST', route: '/call/upsert_batch' }),
      Buffer.byteLength(JSON.stringify(body)),
    );
    assert.equal(
      delta('weft_http_response_bytes_total', { method: 'POST', route: '/call/upsert_batch' }),
      Buffer.byteLength(up.text),
    );
    // A streamed answer (no Content-Length) is counted as it is sent.
    const streamed = await t.post('/calls/stream_query', { project_id: PROJECT });
    const again = await scrape(t);
    assert.equal(
      sampleSum(again, 'weft_http_response_bytes_total', { route: '/calls/stream_query' }) -
        sampleSum(after, 'weft_http_response_bytes_total', { route: '/calls/stream_query' }),
      Buffer.byteLength(streamed.text),
    );

    assert.equal(delta('weft_calls_written_total', { part: 'start' }), 3);
    assert.equal(delta('weft_calls_written_total', { part: 'end' }), 3);
    assert.equal(delta('weft_objects_written_total'), 1);
    assert.equal(delta('weft_feedback_written_total'), 3);
    assert.ok(delta('weft_writer_commit_seconds_count') >= 5, 'each acknowledged write was a commit');
    assert.equal(delta('weft_ingest_rejected_total'), 0);

    assert.equal(
      delta('weft_http_requests_total', {
        method: 'PUT',
        route: '/objs/:object_id/versions/:digest/tags',
        status: '200',
      }),
      1,
    );
    assert.equal(delta('weft_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1);
    for (const f of after.values()) {
      for (const s of f.samples) {
        for (const v of Object.values(s.labels))
          assert.ok(!v.includes(digest) && !v.includes('route-abc'), `raw URL in a label: ${v}`);
      }
    }
  } finally {
    await t.close();
  }
});

test('the ingest queue: its bytes while a commit is held, and a 503 from backpressure moves its counter', async () => {
  const t = await startTestApp({ ingestQueueBytes: 1 });
  const release = holdWrites(t);
  try {
    const before = await scrape(t);
    assert.equal(sampleSum(before, 'weft_ingest_queue_limit_bytes'), 1);
    const pending = t.post('/call/upsert_batch', batchOf(2));
    await new Promise((r) => setTimeout(r, 100));
    const held = await scrape(t);
    assert.ok(sampleSum(held, 'weft_ingest_queue_bytes') > 0, 'the waiting batch is in the queue');
    const refused = await t.post('/call/upsert_batch', batchOf(1));
    assert.equal(refused.status, 503, refused.text);
    release();
    assert.equal((await pending).status, 200);
    const after = await scrape(t);
    assert.equal(sampleSum(after, 'weft_ingest_rejected_total') - sampleSum(before, 'weft_ingest_rejected_total'), 1);
    assert.equal(sampleSum(after, 'weft_http_requests_total', { route: '/call/upsert_batch', status: '503' }), 1);
    assert.equal(sampleSum(after, 'weft_ingest_queue_bytes'), 0, 'drained once committed');
    assert.equal(
      sampleSum(after, 'weft_calls_written_total', { part: 'start' }) -
        sampleSum(before, 'weft_calls_written_total', { part: 'start' }),
      2,
      'the refused batch wrote nothing',
    );
  } finally {
    release();
    await t.close();
  }
});

test('retention deletions are counted', async () => {
  const t = await startTestApp({ retentionIntervalMs: 10 });
  try {
    const p = 'metrics/ttl';
    assert.equal((await t.post('/project/ttl_settings/update', { project_id: p, retention_days: 1 })).status, 200);
    const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const starts = [start({ project_id: p, started_at: old }), start({ project_id: p, started_at: old })];
    assert.equal((await t.post('/call/upsert_batch', { batch: starts.map(startItem) })).status, 200);
    const deadline = Date.now() + 10_000;
    let deleted = 0;
    while ((deleted = sampleSum(await scrape(t), 'weft_retention_deleted_calls_total')) < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal(deleted, 2);
  } finally {
    await t.close();
  }
});

test('each app has its own registry: another app in the process does not move this one', async () => {
  const [a, b] = [await startTestApp(), await startTestApp()];
  try {
    assert.equal((await a.post('/call/upsert_batch', batchOf(2))).status, 200);
    assert.equal(sampleSum(await scrape(a), 'weft_calls_written_total', { part: 'start' }), 2);
    assert.equal(sampleSum(await scrape(b), 'weft_calls_written_total', { part: 'start' }), 0);
  } finally {
    await a.close();
    await b.close();
  }
});
