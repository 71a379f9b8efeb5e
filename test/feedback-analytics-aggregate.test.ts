// /feedback/aggregate through HTTP (the Agents Signals trend): the single rollup row, sparse UTC
// buckets, group_by and its ordering, tag counts and rating counts and sums, every filter
// (feedback type prefixes, tags, _rating_ bounds, monitor and scorer ids exact or by prefix,
// agent names, span types), another project's rows never counted, and the documented 400s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { insertFeedback, poster } from './helpers/feedback-rows.js';

const P = 'fa-entity/aggregate';
const A0 = Date.UTC(2026, 10, 2); // 2026-11-02T00:00Z
const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
const ref = (kind: string, id: string) => `weave:///${P}/${kind}/${id}`;
let t: TestApp;
let aggregate: (body: Record<string, unknown>) => ReturnType<TestApp['post']>;

before(async () => {
  t = await startTestApp();
  aggregate = poster(t, '/feedback/aggregate', { project_id: P, after_ms: A0, before_ms: A0 + DAY });
  const monitor = { project_id: P, feedback_type: 'wandb.agent_monitor', weave_ref: ref('agent_turn', 't1') };
  const a1 = {
    ...monitor,
    atMs: A0 + 10 * MIN,
    trigger_ref: ref('object', 'mon-a:d1'),
    runnable_ref: ref('op', 'judge:d1'),
    scorer_tags: ['slow', 'rude'],
    scorer_ratings: { _rating_: 0.5, helpful: 1 },
    span_agent_name: 'bot',
    span_agent_version: 'v1',
    span_status_code: 'OK',
  };
  await insertFeedback(t, [
    a1,
    {
      ...monitor,
      atMs: A0 + 20 * MIN,
      trigger_ref: ref('object', 'mon-a:d2'),
      runnable_ref: ref('op', 'judge:d2'),
      scorer_tags: ['slow'],
      scorer_ratings: { _rating_: 0 },
      span_agent_name: 'bot',
      span_agent_version: 'v2',
      span_status_code: 'ERROR',
    },
    {
      ...monitor,
      atMs: A0 + 70 * MIN,
      weave_ref: ref('agent_conversation', 'c1'),
      trigger_ref: ref('object', 'monday:d1'),
      runnable_ref: ref('op', 'grader:d1'),
      span_agent_name: 'helper',
    },
    {
      project_id: P,
      feedback_type: 'wandb.runnable.judge',
      atMs: A0 + 80 * MIN,
      scorer_tags: ['rude'],
      scorer_ratings: { _rating_: 0.9 },
    },
    { ...a1, atMs: A0 + 40 * DAY },
    { ...a1, project_id: 'fa-entity/elsewhere' },
  ]);
});
after(() => t.close());

const ok = async (body: Record<string, unknown>) => {
  const r = await aggregate(body);
  assert.equal(r.status, 200, r.text);
  return r.body;
};
const totals = async (body: Record<string, unknown>) => (await ok(body)).buckets.map((b: any) => b.total_count);

test('without bucket or group_by: one rollup row of counts, tags and ratings', async () => {
  assert.deepEqual(await ok({}), {
    time_bucket_seconds: null,
    after_ms: A0,
    before_ms: A0 + DAY,
    buckets: [
      {
        time_bucket_start_ms: null,
        group: {},
        total_count: 4,
        scored_count: 3,
        tag_counts: { rude: 2, slow: 2 },
        rating_counts: { _rating_: 3, helpful: 1 },
        rating_sums: { _rating_: 1.4, helpful: 1 },
      },
    ],
  });
});

test('over no rows: still one row without bucket or group_by, none with either', async () => {
  const empty = { after_ms: A0 + 2 * DAY, before_ms: A0 + 3 * DAY };
  assert.deepEqual((await ok(empty)).buckets, [
    {
      time_bucket_start_ms: null,
      group: {},
      total_count: 0,
      scored_count: 0,
      tag_counts: {},
      rating_counts: {},
      rating_sums: {},
    },
  ]);
  assert.deepEqual((await ok({ ...empty, time_bucket_seconds: 3600 })).buckets, []);
  assert.deepEqual((await ok({ ...empty, group_by: ['scorer_id'] })).buckets, []);
});

test('time buckets are UTC multiples of the width, sparse, in time order', async () => {
  const body = await ok({ before_ms: A0 + 6 * H, time_bucket_seconds: 3600 });
  assert.equal(body.time_bucket_seconds, 3600);
  assert.deepEqual(
    body.buckets.map((b: any) => [b.time_bucket_start_ms, b.total_count, b.scored_count, b.rating_sums]),
    [
      [A0, 2, 2, { _rating_: 0.5, helpful: 1 }],
      [A0 + H, 2, 1, { _rating_: 0.9 }],
    ],
  );
  // A bucket start before after_ms: buckets are aligned to the epoch, not to the range.
  const shifted = await ok({ after_ms: A0 + 15 * MIN, before_ms: A0 + 2 * H, time_bucket_seconds: 1800 });
  assert.deepEqual(
    shifted.buckets.map((b: any) => [b.time_bucket_start_ms, b.total_count]),
    [
      [A0, 1],
      [A0 + H, 2],
    ],
  );
});

test('group_by: one row per group holding rows, ordered by the group values', async () => {
  const byScorer = await ok({ group_by: ['scorer_id'] });
  assert.deepEqual(
    byScorer.buckets.map((b: any) => [b.group, b.total_count, b.tag_counts]),
    [
      [{ scorer_id: '' }, 1, { rude: 1 }],
      [{ scorer_id: 'grader' }, 1, {}],
      [{ scorer_id: 'judge' }, 2, { rude: 1, slow: 2 }],
    ],
  );
  const byAgent = await ok({ group_by: ['span_agent_name', 'span_status_code'] });
  assert.deepEqual(
    byAgent.buckets.map((b: any) => b.group),
    [
      { span_agent_name: '', span_status_code: 'UNSET' },
      { span_agent_name: 'bot', span_status_code: 'ERROR' },
      { span_agent_name: 'bot', span_status_code: 'OK' },
      { span_agent_name: 'helper', span_status_code: 'UNSET' },
    ],
  );
  const both = await ok({ time_bucket_seconds: 3600, group_by: ['span_agent_version'] });
  assert.deepEqual(
    both.buckets.map((b: any) => [b.time_bucket_start_ms, b.group.span_agent_version, b.total_count, b.rating_sums]),
    [
      [A0, 'v1', 1, { _rating_: 0.5, helpful: 1 }],
      // A rating summing to 0 is still there (ClickHouse's sumMap drops it; its count keeps it).
      [A0, 'v2', 1, { _rating_: 0 }],
      [A0 + H, '', 2, { _rating_: 0.9 }],
    ],
  );
});

test('filters: type prefixes, tags, _rating_ bounds, monitor and scorer ids, agents, span types', async () => {
  assert.deepEqual(await totals({ feedback_types: ['wandb.agent*'] }), [3]);
  assert.deepEqual(await totals({ feedback_types: ['wandb.runnable.', 'nothing'] }), [1]);
  assert.deepEqual(await totals({ tags: ['rude', 'absent'] }), [2]);
  assert.deepEqual(await totals({ rating_min: 0.4 }), [2]);
  assert.deepEqual(await totals({ rating_max: 0.1 }), [1]);
  assert.deepEqual(await totals({ rating_min: 0, rating_max: 1 }), [3]);
  assert.deepEqual(await totals({ monitor_ids: ['mon-a'] }), [2]);
  assert.deepEqual(await totals({ monitor_ids: ['mon*'] }), [3]);
  assert.deepEqual(await totals({ monitor_ids: ['mon'] }), [0]);
  assert.deepEqual(await totals({ scorer_ids: ['judge', 'grader'] }), [3]);
  assert.deepEqual(await totals({ scorer_ids: ['jud*'] }), [2]);
  assert.deepEqual(await totals({ span_agent_names: ['helper'] }), [1]);
  assert.deepEqual(await totals({ span_types: ['agent_conversation'] }), [1]);
  assert.deepEqual(await totals({ span_types: ['agent_turn'] }), [2]);
  assert.deepEqual(await totals({ span_types: ['agent_turn'], tags: ['rude'], rating_min: 0.5 }), [1]);
});

test('over 31 days only without bucket, group_by and filters', async () => {
  const long = { before_ms: A0 + 41 * DAY };
  assert.deepEqual(await totals(long), [5]);
  for (const extra of [
    { group_by: ['scorer_id'] },
    { tags: ['slow'] },
    { rating_min: 0 },
    { span_types: ['agent_turn'] },
    { time_bucket_seconds: 86_400 },
  ]) {
    const r = await aggregate({ ...long, ...extra });
    assert.equal(r.status, 400, `${JSON.stringify(extra)}: ${r.text}`);
    assert.match(r.body.reason, /31 days/);
  }
  const empty = await aggregate({ ...long, tags: [], group_by: [], monitor_ids: null });
  assert.equal(empty.status, 200, empty.text);
});

test('invalid ranges and bucket counts answer 400', async () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ before_ms: A0 }, /before_ms must be greater than after_ms/],
    [{ before_ms: A0 - 1 }, /before_ms must be greater than after_ms/],
    [{ time_bucket_seconds: 60 }, /1440 time buckets exceed 256/],
  ];
  for (const [body, reason] of bad) {
    const r = await aggregate(body);
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.reason, reason);
  }
  assert.equal((await aggregate({ time_bucket_seconds: 338 })).status, 200);
});

test('malformed bodies answer 422', async () => {
  for (const body of [
    { after_ms: -1 },
    { before_ms: 'tomorrow' },
    { time_bucket_seconds: 0 },
    { group_by: ['agent'] },
    { span_types: ['agent_step'] },
    { rating_min: 1.5 },
    { tags: 'slow' },
    { surely_not_a_field: true },
  ]) {
    const r = await aggregate(body);
    assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
  }
  assert.equal((await t.post('/feedback/aggregate', { project_id: P, after_ms: 0 })).status, 422);
});
