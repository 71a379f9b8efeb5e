// /feedback/stats through HTTP: dense buckets aligned in the time zone, numeric, boolean and
// categorical payload values, exact percentiles, window_stats, the feedback_type and trigger_ref
// filters, deleted and replaced rows left out, another project's rows never counted, and the
// documented 400s (Weave's FeedbackStatsReq rules).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { insertFeedback, poster } from './helpers/feedback-rows.js';

const P = 'fa-entity/stats';
const T0 = Date.UTC(2026, 10, 1); // 2026-11-01T00:00Z
const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
let t: TestApp;
let stats: (body: Record<string, unknown>) => ReturnType<TestApp['post']>;

const MON = 'weave:///e/p/object/mon';
before(async () => {
  t = await startTestApp();
  stats = poster(t, '/feedback/stats', { project_id: P });
  const judge = { project_id: P, feedback_type: 'wandb.runnable.judge' };
  await insertFeedback(t, [
    {
      ...judge,
      atMs: T0 + H,
      trigger_ref: `${MON}:v1`,
      payload: { output: { score: 0.2, passed: true, label: 'good' } },
    },
    {
      ...judge,
      atMs: T0 + 1.5 * H,
      trigger_ref: `${MON}:v2`,
      payload: { output: { score: 0.4, passed: false, label: 'bad' } },
    },
    {
      ...judge,
      atMs: T0 + 5 * H,
      trigger_ref: `${MON}day:v1`,
      payload: { output: { score: 0.9, passed: true, label: 'good' } },
    },
    { project_id: P, atMs: T0 + 5 * H + 600_000, payload: { output: { score: 'high', passed: 'true' } } },
    { ...judge, atMs: T0 + 48 * H, payload: { output: { score: 7 } } },
    { ...judge, project_id: 'fa-entity/elsewhere', atMs: T0 + H, payload: { output: { score: 100, passed: true } } },
  ]);
  // Rows that must not count: one purged, one replaced (the replacement is created now, outside the window).
  const [purged, replaced] = await insertFeedback(t, [
    { ...judge, atMs: T0 + H, payload: { output: { score: 50, passed: false } } },
    { ...judge, atMs: T0 + H, payload: { output: { score: 60, passed: false } } },
  ]);
  const byId = (id: string) => ({ $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } });
  assert.equal((await t.post('/feedback/purge', { project_id: P, query: byId(purged!.id) })).status, 200);
  const r = await t.post('/feedback/replace', {
    project_id: P,
    feedback_id: replaced!.id,
    weave_ref: `weave:///${P}/call/c1`,
    feedback_type: 'note',
    payload: { output: { score: 70 } },
  });
  assert.equal(r.status, 200, r.text);
});
after(() => t.close());

const METRICS = [
  { json_path: 'output.score', aggregations: ['avg', 'min', 'max', 'sum', 'count'], percentiles: [50, 90] },
  { json_path: 'output.passed', value_type: 'boolean' },
  { json_path: 'output.label', value_type: 'categorical' },
];

test('dense hourly buckets hold the aggregations of each value type; empty ones read 0 or null', async () => {
  const r = await stats({ start: iso(T0), end: iso(T0 + 12 * H), granularity: 3600, metrics: METRICS });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.granularity, 3600);
  assert.equal(r.body.timezone, 'UTC');
  assert.equal(r.body.start, iso(T0));
  assert.equal(r.body.end, iso(T0 + 12 * H));
  const buckets = r.body.buckets as Record<string, unknown>[];
  assert.deepEqual(
    buckets.map((b) => b.timestamp),
    Array.from({ length: 12 }, (_, i) => iso(T0 + i * H)),
  );
  assert.deepEqual(buckets[1], {
    timestamp: iso(T0 + H),
    avg_output_score: 0.3,
    min_output_score: 0.2,
    max_output_score: 0.4,
    sum_output_score: 0.6,
    count_output_score: 2,
    p50_output_score: 0.3,
    p90_output_score: 0.38,
    count_true_output_passed: 1,
    count_false_output_passed: 1,
    count_output_label: 2,
    count: 2,
  });
  // A string where a number or a boolean is expected is no value; the row still counts.
  assert.deepEqual(buckets[5], {
    timestamp: iso(T0 + 5 * H),
    avg_output_score: 0.9,
    min_output_score: 0.9,
    max_output_score: 0.9,
    sum_output_score: 0.9,
    count_output_score: 1,
    p50_output_score: 0.9,
    p90_output_score: 0.9,
    count_true_output_passed: 1,
    count_false_output_passed: 0,
    count_output_label: 1,
    count: 2,
  });
  assert.deepEqual(buckets[0], {
    timestamp: iso(T0),
    avg_output_score: 0,
    min_output_score: null,
    max_output_score: null,
    sum_output_score: 0,
    count_output_score: 0,
    p50_output_score: null,
    p90_output_score: null,
    count_true_output_passed: 0,
    count_false_output_passed: 0,
    count_output_label: 0,
    count: 0,
  });
  assert.deepEqual(r.body.window_stats, {
    output_score: { avg: 0.5, min: 0.2, max: 0.9, sum: 1.5, count: 3, p50: 0.4, p90: 0.8 },
    output_passed: { count_true: 2, count_false: 1 },
    output_label: { count: 3 },
  });
});

test('feedback_type is exact; trigger_ref is exact or, ending in ":*", a prefix (Weave strips ":*")', async () => {
  const count = async (body: Record<string, unknown>) => {
    const r = await stats({ start: iso(T0), end: iso(T0 + 24 * H), granularity: 86_400, metrics: METRICS, ...body });
    assert.equal(r.status, 200, r.text);
    return [r.body.buckets[0].count, r.body.window_stats.output_score.count];
  };
  assert.deepEqual(await count({}), [4, 3]);
  assert.deepEqual(await count({ feedback_type: 'note' }), [1, 0]);
  assert.deepEqual(await count({ feedback_type: 'wandb.runnable' }), [0, 0]);
  assert.deepEqual(await count({ trigger_ref: `${MON}:v2` }), [1, 1]);
  assert.deepEqual(await count({ trigger_ref: `${MON}:*` }), [3, 3]);
  assert.deepEqual(await count({ trigger_ref: `${MON}` }), [0, 0]);
});

test('buckets start at local midnight of the time zone (Asia/Kolkata, +05:30)', async () => {
  const r = await stats({
    start: iso(T0 + 0.5 * H),
    end: iso(T0 + 48.5 * H),
    granularity: 86_400,
    timezone: 'Asia/Kolkata',
    metrics: [{ json_path: 'output.score', aggregations: ['max'] }],
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.timezone, 'Asia/Kolkata');
  assert.deepEqual(
    r.body.buckets.map((b: Record<string, unknown>) => [b.timestamp, b.count, b.max_output_score]),
    [
      ['2026-10-31T18:30:00.000Z', 4, 0.9],
      ['2026-11-01T18:30:00.000Z', 0, null],
      ['2026-11-02T18:30:00.000Z', 1, 7],
    ],
  );
});

test('granularity: automatic by range, raised to stay within 10,000 buckets', async () => {
  const gran = async (hours: number, granularity?: number) => {
    const r = await stats({ start: iso(T0), end: iso(T0 + hours * H), granularity, metrics: METRICS });
    assert.equal(r.status, 200, r.text);
    return [r.body.granularity, r.body.buckets.length];
  };
  assert.deepEqual(await gran(2), [300, 24]);
  assert.deepEqual(await gran(12), [3600, 12]);
  assert.deepEqual(await gran(72), [21_600, 12]);
  assert.deepEqual(await gran(14 * 24), [43_200, 28]);
  assert.deepEqual(await gran(31 * 24), [86_400, 31]);
  assert.deepEqual(await gran(31 * 24, 1), [268, 9995]);
});

test('without metrics the answer has no buckets; the window counts as an empty range', async () => {
  const r = await stats({ start: iso(T0), end: iso(T0 + H) });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {
    start: iso(T0),
    end: iso(T0 + H),
    granularity: 300,
    timezone: 'UTC',
    buckets: [],
    window_stats: null,
  });
  const empty = await stats({ start: iso(T0), end: iso(T0), metrics: METRICS });
  assert.equal(empty.status, 200, empty.text);
  assert.deepEqual(empty.body.buckets, []);
  assert.deepEqual(empty.body.window_stats.output_score, {
    avg: null,
    min: null,
    max: null,
    sum: null,
    count: 0,
    p50: null,
    p90: null,
  });
});

test('invalid requests answer 400 with a reason', async () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ end: iso(T0 + 32 * 24 * H) }, /31 days/],
    [{ end: iso(T0 - H) }, /before start/],
    [{ metrics: [{ json_path: 'output.score!' }] }, /json_path may only contain/],
    [{ metrics: [{ json_path: 'a[0]' }] }, /json_path may only contain/],
    [{ metrics: [{ json_path: '   ' }] }, /cannot be empty/],
    [{ metrics: [{ json_path: 'x', value_type: 'boolean', percentiles: [50] }] }, /only valid for numeric/],
    [{ metrics: [{ json_path: 'x', percentiles: [101] }] }, /between 0 and 100/],
    [{ metrics: [{ json_path: 'x', percentiles: [-1] }] }, /between 0 and 100/],
    [{ metrics: [{ json_path: 'x', value_type: 'categorical', aggregations: ['sum'] }] }, /not valid for categorical/],
    [{ metrics: [{ json_path: 'x', aggregations: ['count_true'] }] }, /not valid for numeric/],
    [{ metrics: [{ json_path: 'a.b' }, { json_path: 'a_b' }] }, /same columns/],
    [{ timezone: 'Mars/Olympus' }, /unknown time zone/],
  ];
  for (const [body, reason] of bad) {
    const r = await stats({ start: iso(T0), end: iso(T0 + H), ...body });
    assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    assert.match(r.body.reason, reason, JSON.stringify(body));
  }
});

test('malformed bodies answer 422', async () => {
  for (const body of [
    { start: 'yesterday' },
    { metrics: [{ json_path: 'x', value_type: 'string' }] },
    { metrics: [{ json_path: 'x', aggregations: ['median'] }] },
    { metrics: [{ json_path: 'x', percentiles: ['50'] }] },
    { metrics: [{ path: 'x' }] },
    { granularity: 0 },
    { surely_not_a_field: 1 },
  ]) {
    const r = await stats({ start: iso(T0), end: iso(T0 + H), ...body });
    assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
  }
  assert.equal((await t.post('/feedback/stats', { start: iso(T0) })).status, 422);
});
