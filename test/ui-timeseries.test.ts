// POST /ui/api/calls/timeseries through HTTP: exact bucket values from known calls (starts,
// latencies, errors, usage, prices that change mid-window), the calls filter and $expr
// agreeing with /calls/query_stats, windows and bucket widths, and the refusals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, bearer, PROJECT, type TestApp } from './helpers/test-app.js';
import { end, endItem, opRef, start, startItem } from './helpers/calls.js';

const URL = '/ui/api/calls/timeseries';
let t: TestApp;
let keyed: TestApp;

const at = (hhmmss: string, ms = 0) => `2026-11-20T${hhmmss}.${String(ms).padStart(3, '0')}Z`;
const llm = (prompt: number, completion: number) => ({
  usage: {
    'test-llm': {
      requests: 1,
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    },
  },
});

// Minute 10:00: a root with usage (100 ms), its child (10 ms), a failing root (300 ms).
// Minute 10:01: a root with unpriced Anthropic-style usage (200 ms), a running root.
// Minute 10:02: nothing. Minute 10:03: a root priced at the newer price (50 ms).
const r1 = start({ op: opRef('agent'), started_at: at('10:00:10') });
const c1 = start({ op: opRef('tool'), trace_id: r1.trace_id, parent_id: r1.id, started_at: at('10:00:20') });
const r2 = start({ op: opRef('agent'), started_at: at('10:00:40') });
const r3 = start({ op: opRef('chat'), started_at: at('10:01:20') });
const r4 = start({ op: opRef('agent'), started_at: at('10:01:50') });
const r5 = start({ op: opRef('chat'), started_at: at('10:03:30') });
const gone = start({ op: opRef('agent'), started_at: at('10:02:30') });
const elsewhere = start({ op: opRef('agent'), started_at: at('10:02:30'), project_id: 'test-entity/elsewhere' });

before(async () => {
  t = await startTestApp();
  const batch = [
    startItem(r1),
    endItem(end(r1.id, { ended_at: at('10:00:10', 100), summary: llm(1000, 500) })),
    startItem(c1),
    endItem(end(c1.id, { ended_at: at('10:00:20', 10) })),
    startItem(r2),
    endItem(end(r2.id, { ended_at: at('10:00:40', 300), exception: 'boom' })),
    startItem(r3),
    endItem(
      end(r3.id, {
        ended_at: at('10:01:20', 200),
        summary: { usage: { 'claude-test': { input_tokens: 10, output_tokens: 5 } } },
      }),
    ),
    startItem(r4),
    startItem(r5),
    endItem(end(r5.id, { ended_at: at('10:03:30', 50), summary: llm(100, 100) })),
    startItem(gone),
    endItem(end(gone.id, { ended_at: at('10:02:31') })),
    startItem(elsewhere),
    endItem(end(elsewhere.id, { ended_at: at('10:02:31'), project_id: 'test-entity/elsewhere' })),
  ];
  assert.equal((await t.post('/call/upsert_batch', { batch })).status, 200);
  assert.equal((await t.post('/calls/delete', { project_id: PROJECT, call_ids: [gone.id] })).status, 200);
  for (const [prompt, completion, effective_date] of [
    [0.001, 0.002, '2026-01-01T00:00:00Z'],
    [0.01, 0.02, at('10:02:00')],
  ] as const) {
    const r = await t.post('/cost/create', {
      project_id: PROJECT,
      costs: { 'test-llm': { prompt_token_cost: prompt, completion_token_cost: completion, effective_date } },
    });
    assert.equal(r.status, 200, r.text);
  }
  keyed = await startTestApp({ keys: [{ user: 'ann', entity: 'elsewhere', role: 'reader' }] });
});
after(async () => {
  await t.close();
  await keyed.close();
});

async function series(body: Record<string, unknown>) {
  const r = await t.post(URL, { project_id: PROJECT, ...body });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

test('minute buckets over a given window hold the exact counts, percentiles, tokens and cost; empty ones too', async () => {
  const body = await series({ from: at('10:00:00'), to: at('10:04:00'), bucket_seconds: 60 });
  assert.equal(body.bucket_seconds, 60);
  assert.equal(body.from, at('10:00:00'));
  assert.equal(body.to, at('10:04:00'));
  const costs = body.buckets.map((b: { cost_usd: number }) => b.cost_usd);
  close(costs[0], 1000 * 0.001 + 500 * 0.002);
  close(costs[3], 100 * 0.01 + 100 * 0.02);
  assert.deepEqual(
    body.buckets.map(({ cost_usd: _, ...b }: { cost_usd: number }) => b),
    [
      // Latencies 100, 10, 300 ms: nearest-rank median 100, 95th 300.
      { start: at('10:00:00'), calls: 3, errors: 1, latency_p50_ms: 100, latency_p95_ms: 300, tokens: 1500 },
      // The running call counts as a call but has no latency; input+output tokens, no price.
      { start: at('10:01:00'), calls: 2, errors: 0, latency_p50_ms: 200, latency_p95_ms: 200, tokens: 15 },
      { start: at('10:02:00'), calls: 0, errors: 0, latency_p50_ms: null, latency_p95_ms: null, tokens: 0 },
      { start: at('10:03:00'), calls: 1, errors: 0, latency_p50_ms: 50, latency_p95_ms: 50, tokens: 200 },
    ],
  );
  assert.equal(costs[1], 0);
  assert.equal(costs[2], 0);
  const { cost_usd, ...totals } = body.totals;
  close(cost_usd, 5);
  // All five latencies 10, 50, 100, 200, 300: median 100, 95th 300.
  assert.deepEqual(totals, { calls: 6, errors: 1, latency_p50_ms: 100, latency_p95_ms: 300, tokens: 1715 });
});

test('no window: from the first to the last matching start, rounded out to a round bucket width (~60-120 buckets)', async () => {
  const body = await series({});
  // 200 s between the first and the last start: 2 s buckets, 10:00:10 to just after 10:03:30.
  assert.equal(body.bucket_seconds, 2);
  assert.equal(body.from, at('10:00:10'));
  assert.equal(body.to, at('10:03:32'));
  assert.equal(body.buckets.length, 101);
  assert.equal(body.buckets[0].start, at('10:00:10'));
  assert.equal(body.buckets[100].start, at('10:03:30'));
  assert.equal(
    body.buckets.reduce((n: number, b: { calls: number }) => n + b.calls, 0),
    6,
  );
  assert.equal(body.totals.calls, 6);
  // Only from, or only to: the other bound comes from the calls.
  const after1001 = await series({ from: at('10:01:00'), bucket_seconds: 60 });
  assert.deepEqual([after1001.from, after1001.to, after1001.totals.calls], [at('10:01:00'), at('10:04:00'), 3]);
  const before1001 = await series({ to: at('10:01:00'), bucket_seconds: 60 });
  assert.deepEqual([before1001.from, before1001.to, before1001.totals.calls], [at('10:00:00'), at('10:01:00'), 3]);
});

test('a given window is kept exactly: [from, to), buckets aligned to multiples of their width', async () => {
  const body = await series({ from: at('10:00:30'), to: at('10:03:30'), bucket_seconds: 60 });
  assert.deepEqual(
    body.buckets.map((b: { start: string; calls: number }) => [b.start, b.calls]),
    [
      [at('10:00:00'), 1],
      [at('10:01:00'), 2],
      [at('10:02:00'), 0],
      [at('10:03:00'), 0],
    ],
  );
  assert.equal(body.totals.calls, 3);
  const auto = await series({ from: at('10:00:00'), to: at('11:00:00') });
  assert.equal(auto.bucket_seconds, 30);
  assert.equal(auto.buckets.length, 120);
});

test('the filter and $expr select the same calls as /calls/query_stats', async () => {
  const cases = [
    { filter: { trace_roots_only: true } },
    { filter: { op_names: [opRef('chat')] } },
    { filter: { trace_ids: [r1.trace_id] } },
    { query: { $expr: { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] } } },
    {
      filter: { trace_roots_only: true },
      query: {
        $expr: {
          $contains: { input: { $getField: 'op_name' }, substr: { $literal: 'AGENT' }, case_insensitive: true },
        },
      },
    },
    { query: { $expr: { $gt: [{ $getField: 'summary.weave.latency_ms' }, { $literal: 60 }] } } },
  ];
  const expected = [5, 2, 2, 1, 3, 3];
  for (const [i, c] of cases.entries()) {
    const stats = await t.post('/calls/query_stats', { project_id: PROJECT, ...c });
    assert.equal(stats.status, 200, stats.text);
    const body = await series({ ...c, from: at('10:00:00'), to: at('10:04:00'), bucket_seconds: 60 });
    assert.equal(body.totals.calls, stats.body.count, JSON.stringify(c));
    assert.equal(body.totals.calls, expected[i], JSON.stringify(c));
  }
  const errorsOnly = await series({
    query: cases[3]!.query,
    from: at('10:00:00'),
    to: at('10:04:00'),
    bucket_seconds: 60,
  });
  assert.deepEqual(
    errorsOnly.buckets.map((b: { errors: number }) => b.errors),
    [1, 0, 0, 0],
  );
  assert.equal(errorsOnly.totals.latency_p50_ms, 300);
});

test('an empty project: no window, no buckets; with a window, every bucket present and zero', async () => {
  const none = await t.post(URL, { project_id: 'nobody/nothing' });
  assert.equal(none.status, 200, none.text);
  assert.deepEqual(none.body, {
    bucket_seconds: 1,
    from: null,
    to: null,
    buckets: [],
    totals: { calls: 0, errors: 0, latency_p50_ms: null, latency_p95_ms: null, tokens: 0, cost_usd: 0 },
  });
  const windowed = await t.post(URL, {
    project_id: 'nobody/nothing',
    from: '2026-11-20T00:00:00Z',
    to: '2026-11-21T00:00:00Z',
  });
  assert.equal(windowed.body.bucket_seconds, 900);
  assert.equal(windowed.body.buckets.length, 96);
  assert.ok(
    windowed.body.buckets.every(
      (b: { calls: number; latency_p50_ms: unknown }) => b.calls === 0 && b.latency_p50_ms === null,
    ),
  );
  // A filter matching nothing in a project that has calls.
  const nothing = await series({ filter: { call_ids: ['no-such-call'] } });
  assert.deepEqual([nothing.from, nothing.buckets.length], [null, 0]);
});

test('too many buckets, an empty window and a bad $expr are 4xx with a reason', async () => {
  const tooMany = await t.post(URL, {
    project_id: PROJECT,
    from: '2026-11-20T00:00:00Z',
    to: '2026-11-21T00:00:00Z',
    bucket_seconds: 1,
  });
  assert.equal(tooMany.status, 400, tooMany.text);
  assert.match(tooMany.body.reason, /86400 buckets.*at most 2000/);
  const backwards = await t.post(URL, { project_id: PROJECT, from: at('10:01:00'), to: at('10:00:00') });
  assert.equal(backwards.status, 400);
  assert.match(backwards.body.reason, /from must be before to/);
  const badField = await t.post(URL, {
    project_id: PROJECT,
    query: { $expr: { $eq: [{ $getField: 'no_such_field' }, { $literal: 1 }] } },
  });
  const statsBadField = await t.post('/calls/query_stats', {
    project_id: PROJECT,
    query: { $expr: { $eq: [{ $getField: 'no_such_field' }, { $literal: 1 }] } },
  });
  assert.equal(badField.status, statsBadField.status, badField.text);
  assert.ok(badField.status >= 400 && badField.status < 500);
});

test('malformed bodies are 422s naming the field', async () => {
  const bodies = [
    {},
    { project_id: 5 },
    { project_id: PROJECT, extra: 1 },
    { project_id: PROJECT, from: 'yesterday' },
    { project_id: PROJECT, to: '2026-13-01T00:00:00Z' },
    { project_id: PROJECT, bucket_seconds: 0 },
    { project_id: PROJECT, bucket_seconds: 1.5 },
    { project_id: PROJECT, bucket_seconds: '60' },
    { project_id: PROJECT, filter: { bogus: true } },
    { project_id: PROJECT, query: { $expr: 1 } },
  ];
  for (const body of bodies) {
    const r = await t.post(URL, body);
    assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
    assert.ok(Array.isArray(r.body.detail));
  }
  assert.equal((await t.postRaw(URL, '{"project_id":')).status, 400);
});

test('keys mode: no key is 401; a key without a role on the project is 403', async () => {
  const body = { project_id: PROJECT };
  assert.equal((await keyed.post(URL, body)).status, 401);
  const r = await keyed.post(URL, body, bearer(keyed.keys[0]!.key));
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error_code, 'FORBIDDEN');
});

test('listed in the OpenAPI document under the Web UI tag', async () => {
  const op = (await t.get('/openapi.json')).body.paths[URL].post;
  assert.equal(op.operationId, 'ui_calls_timeseries');
  assert.deepEqual(op.tags, ['Web UI']);
  assert.equal((await t.post(`/traces${URL}`, { project_id: PROJECT })).status, 404, 'not part of the trace server');
});
