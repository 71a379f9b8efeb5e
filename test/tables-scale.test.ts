// A 100,000-row table (rows of ~200 bytes) through HTTP: created in one request, read back
// whole by /table/query, streamed by /table/query_stream in many chunks, re-versioned by
// /table/update. Timings are printed (they vary with the machine); the bounds asserted are
// only there to catch a pathological regression (e.g. a quadratic plan).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';

const N = 100_000;
const GENEROUS_MS = 60_000;

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const row = (i: number) => ({
  id: i,
  question: `Question number ${i}: what is the capital of the country listed at position ${i % 197}?`,
  expected: `answer-${(i * 7919) % 1000}`,
  meta: { difficulty: ['easy', 'mid', 'hard'][i % 3], tags: ['geo', `batch-${i % 50}`] },
});

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const out = await fn();
  const ms = performance.now() - start;
  console.log(`# ${label}: ${ms.toFixed(0)} ms`);
  assert.ok(ms < GENEROUS_MS, `${label} took ${ms} ms`);
  return out;
}

let digest = '';
let rowDigests: string[] = [];

test(`create a ${N}-row table in one request`, async () => {
  const rows = Array.from({ length: N }, (_, i) => row(i));
  const body = JSON.stringify({ table: { project_id: P, rows } });
  console.log(`# request body: ${(body.length / 1e6).toFixed(1)} MB, ${(body.length / N).toFixed(0)} bytes per row`);
  const res = await timed('table/create 100k', () => t.postRaw('/table/create', body));
  assert.equal(res.status, 200, res.text.slice(0, 300));
  digest = res.body.digest;
  rowDigests = res.body.row_digests;
  assert.equal(rowDigests.length, N);
  assert.equal(digest, createHash('sha256').update(rowDigests.join('')).digest('hex'));
  const again = await timed('table/create 100k again (idempotent)', () => t.postRaw('/table/create', body));
  assert.equal(again.body.digest, digest);
});

test('table/query returns every row, in order', async () => {
  const res = await timed('table/query 100k (no limit)', () => t.post('/table/query', { project_id: P, digest }));
  assert.equal(res.status, 200);
  const rows = res.body.rows as any[];
  assert.equal(rows.length, N);
  for (let i = 0; i < N; i += 997) {
    assert.equal(rows[i].original_index, i);
    assert.equal(rows[i].digest, rowDigests[i]);
    assert.equal(rows[i].val.id, i);
  }
  assert.deepEqual(rows[N - 1].val, row(N - 1));
  const page = await timed('table/query offset 99990 limit 5', () =>
    t.post('/table/query', { project_id: P, digest, offset: N - 10, limit: 5 }),
  );
  assert.deepEqual(
    page.body.rows.map((r: any) => r.original_index),
    [N - 10, N - 9, N - 8, N - 7, N - 6],
  );
  const sorted = await timed('table/query sort_by expected desc, limit 10', () =>
    t.post('/table/query', {
      project_id: P,
      digest,
      sort_by: [
        { field: 'expected', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ],
      limit: 10,
    }),
  );
  assert.equal(sorted.body.rows[0].val.expected, 'answer-999');
  assert.ok(sorted.body.rows[0].val.id > sorted.body.rows[1].val.id);
});

test('table/query_stream streams all rows in many chunks', async () => {
  const start = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: '/table/query_stream',
    payload: { project_id: P, digest },
    payloadAsStream: true,
  });
  assert.equal(res.statusCode, 200);
  let chunks = 0;
  let lines = 0;
  let pending = '';
  let firstChunkMs = 0;
  for await (const chunk of res.stream()) {
    if (chunks++ === 0) firstChunkMs = performance.now() - start;
    pending += chunk.toString('utf8');
    const cut = pending.lastIndexOf('\n');
    if (cut < 0) continue;
    for (const line of pending.slice(0, cut).split('\n')) {
      const r = JSON.parse(line);
      assert.equal(r.original_index, lines);
      lines++;
    }
    pending = pending.slice(cut + 1);
  }
  const ms = performance.now() - start;
  console.log(
    `# table/query_stream 100k: ${ms.toFixed(0)} ms, ${chunks} chunks, first chunk after ${firstChunkMs.toFixed(0)} ms`,
  );
  assert.equal(pending, '');
  assert.equal(lines, N);
  assert.ok(chunks >= 100, `only ${chunks} chunks: the stream was materialised`);
});

test('stats, row digests for refs, and a new version with one more row', async () => {
  const stats = await t.post('/table/query_stats_batch', {
    project_id: P,
    digests: [digest],
    include_storage_size: true,
  });
  assert.equal(stats.body.tables[0].count, N);
  assert.ok(stats.body.tables[0].storage_size_bytes > N * 150);
  const list = await timed('TableStore.getTableRowDigests 100k', () => t.store.tables.getTableRowDigests(P, digest));
  assert.deepEqual(list, rowDigests);
  const upd = await timed('table/update append to 100k', () =>
    t.post('/table/update', { project_id: P, base_digest: digest, updates: [{ append: { row: row(N) } }] }),
  );
  assert.equal(upd.status, 200, upd.text);
  assert.equal((await t.post('/table/query_stats', { project_id: P, digest: upd.body.digest })).body.count, N + 1);
});
