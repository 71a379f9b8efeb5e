// group_distributions of /agents/spans/query through HTTP: per group, numeric custom attributes
// as equal bins and strings and booleans as their most frequent values, with the present,
// missing and other counts; each rule's 400, malformed specs and another project left out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId } from './helpers/agent-spans.js';
import { agentTurn, expectPost, sendTurns } from './helpers/agent-turns.js';

type Attrs = Record<string, string | number | boolean>;

let t: TestApp;
const ENTITY = PROJECT.split('/')[0]!;
const P = `${ENTITY}/agents-dist-${hexId(4)}`;
const OTHER = `${ENTITY}/agents-dist-other-${hexId(4)}`;
const T0 = Date.UTC(2026, 10, 27, 8);

before(async () => {
  t = await startTestApp();
  const x = (
    [
      { 'app.latency': 1.5, 'app.steps': 1, 'app.tier': 'gold', 'app.cached': true },
      { 'app.latency': 2.5, 'app.steps': 2, 'app.tier': 'gold', 'app.cached': false },
      { 'app.latency': 3.5, 'app.steps': 3, 'app.tier': 'silver', 'app.cached': true },
      { 'app.latency': 11.5, 'app.steps': 4, 'app.tier': 'bronze' },
    ] as Attrs[]
  ).map((attrs, i) => agentTurn('conv-x', 'support', T0 + i * 1000, attrs));
  const y = [0, 1].map((i) =>
    agentTurn('conv-y', 'support', T0 + 10_000 + i * 1000, { 'app.latency': 5.5, 'app.tier': 'gold' }),
  );
  await sendTurns(t, P, [...x, ...y, agentTurn('conv-z', 'support', T0 + 20_000)]);
  await sendTurns(t, OTHER, [agentTurn('conv-x', 'support', T0, { 'app.latency': 100.5, 'app.tier': 'lead' })]);
});
after(async () => {
  await t.close();
});

const item = (over: Record<string, unknown>) => ({
  other_count: 0,
  bins: [],
  values: [],
  ...over,
});

test('numeric attributes: equal bins between the group values, one bin when they are all equal', async () => {
  const got = await expectPost(t, '/agents/spans/query', {
    project_id: P,
    group_by: [{ key: 'conversation_id', alias: 'conv' }],
    group_distributions: [
      { alias: 'latency', value: { source: 'custom_attrs_float', key: 'app.latency' }, bins: 4 },
      { alias: 'steps', value: { source: 'custom_attrs_int', key: 'app.steps' } },
    ],
  });
  const by = Object.fromEntries(got.groups.map((g: any) => [g.group_keys.conv, g.distributions]));
  assert.deepEqual(
    by['conv-x'].latency,
    item({
      alias: 'latency',
      source: 'custom_attrs_float',
      key: 'app.latency',
      value_type: 'float',
      total_count: 8,
      present_count: 4,
      missing_count: 4,
      bins: [
        { index: 0, min: 1.5, max: 4, count: 3 },
        { index: 1, min: 4, max: 6.5, count: 0 },
        { index: 2, min: 6.5, max: 9, count: 0 },
        { index: 3, min: 9, max: 11.5, count: 1 },
      ],
    }),
  );
  const steps = by['conv-x'].steps;
  assert.equal(steps.value_type, 'int');
  assert.equal(steps.bins.length, 12, 'bins default to 12');
  assert.deepEqual(
    steps.bins.filter((b: { count: number }) => b.count > 0).map((b: { index: number }) => b.index),
    [0, 4, 8, 11],
  );
  assert.deepEqual(by['conv-y'].latency.bins, [{ index: 0, min: 5.5, max: 5.5, count: 2 }]);
  assert.deepEqual(
    by['conv-z'].latency,
    item({
      alias: 'latency',
      source: 'custom_attrs_float',
      key: 'app.latency',
      value_type: 'float',
      total_count: 2,
      present_count: 0,
      missing_count: 2,
    }),
  );
});

test('strings and booleans: the most frequent values, the rest in other_count', async () => {
  const got = await expectPost(t, '/agents/spans/query', {
    project_id: P,
    group_by: [{ key: 'conversation_id' }],
    query: { $expr: { $eq: [{ $getField: 'conversation_id' }, { $literal: 'conv-x' }] } },
    group_distributions: [
      { alias: 'tiers', value: { source: 'custom_attrs_string', key: 'app.tier' } },
      { alias: 'top_tier', value: { source: 'custom_attrs_string', key: 'app.tier' }, top_n: 1 },
      { alias: 'cached', value: { source: 'custom_attrs_bool', key: 'app.cached' } },
    ],
  });
  const d = got.groups[0].distributions;
  assert.deepEqual(d.tiers.values, [
    { value: 'gold', count: 2 },
    { value: 'bronze', count: 1 },
    { value: 'silver', count: 1 },
  ]);
  assert.deepEqual([d.tiers.present_count, d.tiers.missing_count, d.tiers.other_count], [4, 4, 0]);
  assert.deepEqual(d.top_tier.values, [{ value: 'gold', count: 2 }]);
  assert.equal(d.top_tier.other_count, 2);
  assert.deepEqual(
    d.cached,
    item({
      alias: 'cached',
      source: 'custom_attrs_bool',
      key: 'app.cached',
      value_type: 'bool',
      total_count: 8,
      present_count: 3,
      missing_count: 5,
      values: [
        { value: 'true', count: 2 },
        { value: 'false', count: 1 },
      ],
    }),
  );
});

test("another project's spans are not counted", async () => {
  const got = await expectPost(t, '/agents/spans/query', {
    project_id: OTHER,
    group_by: [{ key: 'conversation_id' }],
    group_distributions: [{ alias: 't', value: { source: 'custom_attrs_string', key: 'app.tier' } }],
  });
  assert.deepEqual(got.groups[0].distributions.t.values, [{ value: 'lead', count: 1 }]);
  assert.equal(got.groups[0].distributions.t.total_count, 2);
});

test('distribution mistakes answer 400 (422 when malformed)', async () => {
  const spec = { alias: 't', value: { source: 'custom_attrs_string', key: 'app.tier' } };
  const g = { group_by: [{ key: 'conversation_id' }] };
  const bad = (body: Record<string, unknown>, status: number, pattern?: RegExp) =>
    expectPost(t, '/agents/spans/query', { project_id: P, ...body }, status, pattern);
  await bad({ group_distributions: [spec] }, 400, /group_distributions requires group_by/);
  await bad(
    { group_by: [{ key: 'conversation_id' }, { key: 'agent_name' }], group_distributions: [spec] },
    400,
    /one group_by ref/,
  );
  await bad({ ...g, group_distributions: [spec, spec] }, 400, /duplicate distribution aliases: t/);
  await bad({ ...g, group_distributions: [{ ...spec, value: { key: 'agent_name' } }] }, 400, /custom attr sources/);
  await bad({ ...g, group_distributions: [{ ...spec, value: { source: 'derived', key: 'duration_ms' } }] }, 400);
  await bad({ ...g, group_distributions: [{ ...spec, bins: 51 }] }, 422, /bins/);
  await bad({ ...g, group_distributions: [{ ...spec, top_n: 0 }] }, 422, /top_n/);
  await bad({ ...g, group_distributions: [{ ...spec, alias: 'not ok' }] }, 422, /alias/);
  await bad(
    { ...g, group_distributions: Array.from({ length: 21 }, (_, i) => ({ ...spec, alias: `a${i}` })) },
    400,
    /at most 20/,
  );
  await bad({ ...g, group_distributions: [{ alias: 'x' }] }, 422, /value/);
});
