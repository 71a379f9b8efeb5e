// Numeric buckets of /agents/spans/stats through HTTP: a histogram of a span value (with the
// request's metrics per bucket) or of a per-group measure (after group filters), bounds given
// or from the data; each rule's 400, malformed buckets and another project left out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId } from './helpers/agent-spans.js';
import { agentTurn, expectPost, sendTurns } from './helpers/agent-turns.js';

let t: TestApp;
const ENTITY = PROJECT.split('/')[0]!;
const P = `${ENTITY}/agents-hist-${hexId(4)}`;
const OTHER = `${ENTITY}/agents-hist-other-${hexId(4)}`;
const T0 = Date.UTC(2026, 10, 27, 8);
const WINDOW = { start: '2026-11-27T00:00:00Z', end: '2026-11-28T00:00:00Z' };

before(async () => {
  t = await startTestApp();
  const conv = ['conv-1', 'conv-1', 'conv-1', 'conv-2', 'conv-3'];
  await sendTurns(
    t,
    P,
    [1, 2, 3, 4, 10].map((score, i) => agentTurn(conv[i]!, 'support', T0 + i * 1000, { 'app.score': score })),
  );
  await sendTurns(t, OTHER, [agentTurn('conv-1', 'support', T0, { 'app.score': 1000 })]);
});
after(async () => {
  await t.close();
});

const stats = (body: Record<string, unknown>, project = P) =>
  expectPost(t, '/agents/spans/stats', { project_id: project, ...WINDOW, ...body });
const score = { source: 'custom_attrs_int', key: 'app.score' };
const count = { alias: 'n', aggregation: 'count' };

test('a histogram of a span value: equal bins between the smallest and largest, counts per bin', async () => {
  const got = await stats({ bucket_by: { type: 'number', bins: 3, value: score } });
  assert.equal(got.bucket_type, 'number');
  assert.equal(got.granularity, null);
  assert.deepEqual(
    got.columns.map((c: { name: string; role: string; metric: string | null }) => [c.name, c.role, c.metric]),
    [
      ['bucket_index', 'bucket', null],
      ['bucket_min', 'bucket', null],
      ['bucket_max', 'bucket', null],
      ['count', 'metric', 'rows'],
    ],
  );
  assert.deepEqual(got.rows, [
    { bucket_index: 0, bucket_min: 1, bucket_max: 4, count: 3 },
    { bucket_index: 1, bucket_min: 4, bucket_max: 7, count: 1 },
    { bucket_index: 2, bucket_min: 7, bucket_max: 10, count: 1 },
  ]);
  // Bounds given: values outside them are left out; the request's metrics per bucket.
  const bounded = await stats({
    bucket_by: { type: 'number', bins: 2, min: 0, max: 4, value: score },
    metrics: [
      {
        alias: 'd',
        value_type: 'number',
        value: { source: 'derived', key: 'duration_ms' },
        aggregations: ['sum', 'max'],
      },
    ],
  });
  assert.deepEqual(bounded.rows, [
    { bucket_index: 0, bucket_min: 0, bucket_max: 2, sum_d: 1000, max_d: 1000 },
    { bucket_index: 1, bucket_min: 2, bucket_max: 4, sum_d: 3000, max_d: 1000 },
  ]);
  // Durations of every span: model calls 400 ms, agents 1000 ms.
  const durations = await stats({
    bucket_by: { type: 'number', bins: 2, value: { source: 'derived', key: 'duration_ms' } },
  });
  assert.deepEqual(durations.rows, [
    { bucket_index: 0, bucket_min: 400, bucket_max: 700, count: 5 },
    { bucket_index: 1, bucket_min: 700, bucket_max: 1000, count: 5 },
  ]);
  const none = await stats({ bucket_by: { type: 'number', value: { source: 'custom_attrs_float', key: 'nope' } } });
  assert.deepEqual(none.rows, []);
  const other = await stats({ bucket_by: { type: 'number', bins: 1, value: score } }, OTHER);
  assert.deepEqual(other.rows, [{ bucket_index: 0, bucket_min: 1000, bucket_max: 1000, count: 1 }]);
});

test('a histogram of a measure per group, after the group filters', async () => {
  const groups = { type: 'number', bins: 2, group_by: [{ key: 'conversation_id' }], measure: count };
  assert.deepEqual((await stats({ bucket_by: groups })).rows, [
    { bucket_index: 0, bucket_min: 2, bucket_max: 4, count: 2 },
    { bucket_index: 1, bucket_min: 4, bucket_max: 6, count: 1 },
  ]);
  const small = await stats({ bucket_by: groups, group_filters: [{ measure: count, max: 3 }] });
  assert.deepEqual(small.rows, [{ bucket_index: 0, bucket_min: 2, bucket_max: 2, count: 2 }]);
  const signal = await stats({ bucket_by: groups, signal_filters: { tags: ['x'] } });
  assert.deepEqual(signal.rows, []);
  const insight = await stats({ bucket_by: groups, insight_filters: [{ field: 'intent_category', values: ['x'] }] });
  assert.deepEqual(insight.rows, []);
});

test('numeric bucket mistakes answer 400 (422 when malformed)', async () => {
  const bad = (body: Record<string, unknown>, status: number, pattern?: RegExp) =>
    expectPost(t, '/agents/spans/stats', { project_id: P, ...WINDOW, ...body }, status, pattern);
  const groups = { group_by: [{ key: 'conversation_id' }], measure: count };
  const metric = { alias: 'd', value_type: 'number', value: { source: 'derived', key: 'duration_ms' } };
  await bad({ bucket_by: { type: 'number' } }, 400, /exactly one of value or group_by\/measure/);
  await bad({ bucket_by: { type: 'number', value: score, ...groups } }, 400, /exactly one of value/);
  await bad({ bucket_by: { type: 'number', measure: count } }, 400, /both group_by and measure/);
  await bad(
    { bucket_by: { type: 'number', value: { source: 'custom_attrs_string', key: 'x' } } },
    400,
    /must be numeric/,
  );
  await bad({ bucket_by: { type: 'number', value: { source: 'derived', key: 'is_error' } } }, 400, /expected number/);
  await bad({ bucket_by: { type: 'number', value: { key: 'span_name' } } }, 400, /expected number/);
  await bad(
    {
      bucket_by: {
        type: 'number',
        group_by: groups.group_by,
        measure: { alias: 'f', aggregation: 'min', value: { key: 'started_at' } },
      },
    },
    400,
    /must produce a number/,
  );
  await bad(
    { bucket_by: { type: 'number', value: score, min: 5, max: 1 } },
    400,
    /max must be greater than or equal to min/,
  );
  await bad(
    { bucket_by: { type: 'number', value: score }, group_by: [{ key: 'agent_name' }], metrics: [metric] },
    400,
    /do not support group_by/,
  );
  await bad({ bucket_by: { type: 'number', ...groups }, metrics: [metric] }, 400, /do not support explicit metrics/);
  await bad(
    { bucket_by: { type: 'number', value: score }, group_filters: [{ measure: count, min: 1 }] },
    400,
    /only supported for time stats or grouped numeric/,
  );
  await bad(
    {
      bucket_by: { type: 'number', ...groups },
      group_filters: [{ group_by: [{ key: 'agent_name' }], measure: count, min: 1 }],
    },
    400,
    /same group_by/,
  );
  await bad({ bucket_by: { type: 'number', value: score }, end: '2027-01-30T00:00:00Z' }, 400, /31 days/);
  await bad({ bucket_by: { type: 'number', value: score, bins: 201 } }, 422, /bins/);
  await bad({ bucket_by: { type: 'number', value: score, bins: 0 } }, 422, /bins/);
  await bad({ bucket_by: { type: 'histogram', value: score } }, 422);
  await bad({ bucket_by: { type: 'number', value: score, alias: 'no way' } }, 422);
  await bad({ bucket_by: { type: 'number', value: score, color: 'red' } }, 422);
});
