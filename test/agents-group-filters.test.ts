// Group filters, signal filters and Insights filters of /agents/spans/query and
// /agents/spans/stats through HTTP, and custom_attr_columns of ungrouped spans: real figures,
// each rule's 400, malformed bodies and another project's data left out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId } from './helpers/agent-spans.js';
import { agentTurn, expectPost, sendTurns, type AgentTurn } from './helpers/agent-turns.js';

let t: TestApp;
const ENTITY = PROJECT.split('/')[0]!;
const P = `${ENTITY}/agents-gf-${hexId(4)}`;
const OTHER = `${ENTITY}/agents-gf-other-${hexId(4)}`;
const T0 = Date.UTC(2026, 10, 27, 8);
const MIN = 60_000;
const turns: Record<string, AgentTurn[]> = {};

before(async () => {
  t = await startTestApp();
  turns.a = [agentTurn('conv-a', 'support', T0, { 'app.retries': 1 }), agentTurn('conv-a', 'support', T0 + MIN)];
  turns.b = [agentTurn('conv-b', 'sales', T0 + 2 * MIN, { 'app.tenant': 'acme' }, true)];
  turns.c = [0, 1, 2].map((i) => agentTurn('conv-c', 'support', T0 + (10 + i) * MIN, { 'app.retries': 3 + i }));
  await sendTurns(t, P, [...turns.a!, ...turns.b!, ...turns.c!]);
  // Another project: a big conversation with the same id and a tag that must not leak.
  const elsewhere = [0, 1, 2, 3].map((i) => agentTurn('conv-b', 'sales', T0 + i * MIN));
  await sendTurns(t, OTHER, elsewhere);
  const feedback = (project: string, tail: string, body: Record<string, unknown>) =>
    expectPost(t, '/feedback/create', {
      project_id: project,
      payload: {},
      weave_ref: `weave:///${project}/${tail}`,
      ...body,
    });
  await feedback(P, `agent_turn/${turns.a[1]!.traceId}`, {
    feedback_type: 'wandb.agent_user_feedback',
    scorer_tags: ['helpful'],
  });
  await feedback(P, `agent_turn/${turns.c[0]!.traceId}`, {
    feedback_type: 'wandb.agent_monitor',
    scorer_ratings: { quality: 0.8 },
  });
  await feedback(P, 'agent_conversation/conv-b', {
    feedback_type: 'wandb.agent_monitor',
    scorer_ratings: { quality: 0.3 },
  });
  // Not agent feedback: never a signal.
  await feedback(P, `agent_turn/${turns.c[1]!.traceId}`, {
    feedback_type: 'wandb.reaction.1',
    payload: { emoji: '👍' },
  });
  await feedback(OTHER, 'agent_conversation/conv-b', {
    feedback_type: 'wandb.agent_user_feedback',
    scorer_tags: ['helpful'],
  });
});
after(async () => {
  await t.close();
});

const byConversation = { group_by: [{ key: 'conversation_id' }] };
const spanCount = { alias: 'n', aggregation: 'count' };
const conversations = async (body: Record<string, unknown>) => {
  const got = await expectPost(t, '/agents/spans/query', { project_id: P, ...byConversation, ...body });
  return {
    ids: (got.groups as { group_keys: { conversation_id: string } }[]).map((g) => g.group_keys.conversation_id).sort(),
    total: got.total_count as number,
  };
};

test('group filters keep the groups whose measure lies within the bounds, total_count included', async () => {
  assert.deepEqual(await conversations({ group_filters: [{ measure: spanCount, min: 4 }] }), {
    ids: ['conv-a', 'conv-c'],
    total: 2,
  });
  assert.deepEqual(await conversations({ group_filters: [{ measure: spanCount, max: 4 }] }), {
    ids: ['conv-a', 'conv-b'],
    total: 2,
  });
  assert.deepEqual(await conversations({ group_filters: [{ measure: spanCount, min: 4, max: 4 }] }), {
    ids: ['conv-a'],
    total: 1,
  });
  const errors = { alias: 'e', aggregation: 'count_true', value: { source: 'derived', key: 'is_error' } };
  assert.deepEqual(await conversations({ group_filters: [{ measure: errors, min: 1 }] }), {
    ids: ['conv-b'],
    total: 1,
  });
  // A measure's own filter, and two filters together (AND); the group_by spelled out as the query's.
  const chats = { $expr: { $eq: [{ $getField: 'operation_name' }, { $literal: 'chat' }] } };
  assert.deepEqual(
    await conversations({
      group_filters: [
        { measure: { ...spanCount, filter: chats }, min: 2 },
        { group_by: [{ key: 'conversation_id' }], measure: spanCount, max: 5 },
      ],
    }),
    { ids: ['conv-a'], total: 1 },
  );
  // Times: conversations whose first span started at or after 08:05.
  const first = { alias: 'f', aggregation: 'min', value: { key: 'started_at' } };
  assert.deepEqual(await conversations({ group_filters: [{ measure: first, min: '2026-11-27T08:05:00Z' }] }), {
    ids: ['conv-c'],
    total: 1,
  });
  const retries = { alias: 'r', aggregation: 'sum', value: { source: 'custom_attrs_int', key: 'app.retries' } };
  assert.deepEqual(await conversations({ group_filters: [{ measure: retries, min: 10 }] }), {
    ids: ['conv-c'],
    total: 1,
  });
});

test('signal filters keep conversations whose agent feedback carries the tags and ratings', async () => {
  const signals = (signal_filters: unknown) => conversations({ signal_filters });
  assert.deepEqual(await signals({ tags: ['helpful'] }), { ids: ['conv-a'], total: 1 });
  assert.deepEqual(await signals({ tags: ['nope', 'helpful'] }), { ids: ['conv-a'], total: 1 });
  assert.deepEqual(await signals({ ratings: [{ scorer_key: 'quality', op: 'gte', value: 0.5 }] }), {
    ids: ['conv-c'],
    total: 1,
  });
  assert.deepEqual(await signals({ ratings: [{ scorer_key: 'quality', op: 'lt', value: 0.5 }] }), {
    ids: ['conv-b'],
    total: 1,
  });
  assert.deepEqual(await signals({ ratings: [{ scorer_key: 'quality', op: 'eq', value: 0.3 }] }), {
    ids: ['conv-b'],
    total: 1,
  });
  assert.deepEqual(
    await signals({ tags: ['helpful'], ratings: [{ scorer_key: 'quality', op: 'gt', value: 0 }] }),
    { ids: [], total: 0 },
    'every requested signal must be there',
  );
  assert.deepEqual(await signals({ ratings: [{ scorer_key: 'missing', op: 'gte', value: 0 }] }), { ids: [], total: 0 });
  assert.deepEqual(
    await signals({}),
    { ids: ['conv-a', 'conv-b', 'conv-c'], total: 3 },
    'an empty filter is no filter',
  );
  // Not bounded by the time window: the signal on conv-a's second turn still selects its first.
  assert.deepEqual(
    await conversations({ signal_filters: { tags: ['helpful'] }, started_before: '2026-11-27T08:00:30Z' }),
    { ids: ['conv-a'], total: 1 },
  );
});

test('Insights filters are checked; Weft has no Insights, so including ones match nothing', async () => {
  const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  assert.deepEqual(await conversations({ insight_filters: [{ field: 'intent_sentiment', values: ['frustrated'] }] }), {
    ids: [],
    total: 0,
  });
  assert.deepEqual(
    await conversations({ insight_filters: [{ field: 'failure_topic_id', values: [uuid], exclude: true }] }),
    { ids: ['conv-a', 'conv-b', 'conv-c'], total: 3 },
  );
  const bad = (f: unknown, pattern: RegExp) =>
    expectPost(t, '/agents/spans/query', { project_id: P, ...byConversation, insight_filters: [f] }, 400, pattern);
  await bad({ field: 'intent_sentiment', values: ['grumpy', 'neutral'] }, /intent_sentiment values must be one of/);
  await bad({ field: 'failure_severity', values: ['critical'] }, /failure_severity values must be one of/);
  await bad({ field: 'intent_topic_id', values: ['not-a-uuid'] }, /invalid topic ID: not-a-uuid/);
  const malformed = (f: unknown) =>
    expectPost(t, '/agents/spans/query', { project_id: P, ...byConversation, insight_filters: [f] }, 422);
  await malformed({ field: 'intent_category', values: [] });
  await malformed({ field: 'mood', values: ['x'] });
  await malformed({ field: 'intent_category', values: ['x'], extra: 1 });
});

test('stats: signal, Insights and group filters select the spans of the conversations they keep', async () => {
  const stats = async (body: Record<string, unknown>) => {
    const got = await expectPost(t, '/agents/spans/stats', {
      project_id: P,
      start: '2026-11-27T08:00:00Z',
      end: '2026-11-27T09:00:00Z',
      granularity: 3600,
      metrics: [{ alias: 'spans', value_type: 'string', value: { key: 'span_id' }, aggregations: ['count'] }],
      ...body,
    });
    return got.rows.map((r: { count_spans: number }) => r.count_spans);
  };
  assert.deepEqual(await stats({}), [12]);
  assert.deepEqual(await stats({ signal_filters: { tags: ['helpful'] } }), [4]);
  assert.deepEqual(await stats({ insight_filters: [{ field: 'intent_category', values: ['billing'] }] }), [0]);
  // Without group_by a group filter groups by conversation: conv-c alone has more than 4 spans.
  assert.deepEqual(await stats({ group_filters: [{ measure: spanCount, min: 5 }] }), [6]);
  // Its own grouping, then a second filter over what the first kept: agents with 3 spans or more
  // (support: 5 roots; the 6 model calls, of no agent, are a group too), then conversations of 4
  // spans at most among those (conv-a's 4, conv-b's model call).
  assert.deepEqual(
    await stats({
      group_filters: [
        { group_by: [{ key: 'agent_name' }], measure: spanCount, min: 3 },
        { measure: spanCount, max: 4 },
      ],
    }),
    [5],
  );
  const base = {
    project_id: P,
    start: '2026-11-27T08:00:00Z',
    end: '2026-11-27T09:00:00Z',
    metrics: [{ alias: 'x', value_type: 'number', value: { source: 'derived', key: 'duration_ms' } }],
  };
  await expectPost(
    t,
    '/agents/spans/stats',
    { ...base, group_by: [{ key: 'agent_name' }], group_filters: [{ measure: spanCount, min: 1 }] },
    400,
    /group_filters do not support group_by/,
  );
  await expectPost(
    t,
    '/agents/spans/stats',
    { ...base, end: '2026-12-30T00:00:00Z', group_filters: [{ measure: spanCount, min: 1 }] },
    400,
    /31 days/,
  );
  await expectPost(
    t,
    '/agents/spans/stats',
    { ...base, end: '2026-12-30T00:00:00Z', insight_filters: [{ field: 'intent_category', values: ['x'] }] },
    400,
    /31 days/,
  );
  await expectPost(t, '/agents/spans/stats', { ...base, signal_filters: { tags: 'helpful' } }, 422);
});

test('group filter and signal mistakes answer 400 (422 when malformed)', async () => {
  const bad = (body: Record<string, unknown>, pattern: RegExp, status = 400) =>
    expectPost(t, '/agents/spans/query', { project_id: P, ...body }, status, pattern);
  const g = byConversation;
  await bad({ ...g, group_filters: [{ measure: spanCount }] }, /must set min or max/);
  await bad({ ...g, group_filters: [{ measure: spanCount, min: 5, max: 1 }] }, /max must be greater than min/);
  await bad(
    { ...g, group_filters: [{ measure: spanCount, min: 1, max: '2026-11-27T08:00:00Z' }] },
    /min and max must use the same type/,
  );
  await bad(
    { ...g, group_filters: [{ measure: spanCount, min: '2026-11-27T08:00:00Z' }] },
    /datetime group filter bounds/,
  );
  const first = { alias: 'f', aggregation: 'min', value: { key: 'started_at' } };
  await bad({ ...g, group_filters: [{ measure: first, min: 5 }] }, /datetime measures require datetime/);
  await bad({ ...g, group_filters: [{ measure: { alias: 'x', aggregation: 'sum' }, min: 1 }] }, /only count measures/);
  await bad(
    { ...g, group_filters: [{ group_by: [{ key: 'agent_name' }], measure: spanCount, min: 1 }] },
    /same group_by as the query/,
  );
  await bad({ group_filters: [{ measure: spanCount, min: 1 }] }, /group_filters requires group_by/);
  await bad({ signal_filters: { tags: ['helpful'] } }, /signal_filters require group_by/);
  await bad({ insight_filters: [{ field: 'intent_category', values: ['x'] }] }, /insight_filters requires group_by/);
  await bad({ ...g, group_filters: [{ measure: spanCount, min: 'soon' }] }, /min/, 422);
  await bad({ ...g, signal_filters: { ratings: [{ scorer_key: 'q', op: 'near', value: 1 }] } }, /op/, 422);
  await bad({ ...g, signal_filters: { ratings: [{ scorer_key: 'q', op: 'gt' }] } }, /value/, 422);
});

test("another project's spans and feedback are not seen", async () => {
  const other = await expectPost(t, '/agents/spans/query', {
    project_id: OTHER,
    ...byConversation,
    group_filters: [{ measure: spanCount, min: 4 }],
    signal_filters: { tags: ['helpful'] },
  });
  assert.deepEqual(
    other.groups.map((g: { group_keys: unknown; span_count: number }) => [g.group_keys, g.span_count]),
    [[{ conversation_id: 'conv-b' }, 8]],
  );
  // In P, conv-b has 2 spans and no tag: the other project's conversation of the same id lends it neither.
  assert.deepEqual(
    await conversations({ signal_filters: { tags: ['helpful'] }, group_filters: [{ measure: spanCount, max: 2 }] }),
    {
      ids: [],
      total: 0,
    },
  );
});

test('custom_attr_columns: the requested custom attributes of each ungrouped span', async () => {
  const got = await expectPost(t, '/agents/spans/query', {
    project_id: P,
    query: { $expr: { $eq: [{ $getField: 'operation_name' }, { $literal: 'invoke_agent' }] } },
    custom_attr_columns: [{ source: 'custom_attrs_int', key: 'app.retries' }],
    sort_by: [{ field: 'custom_attrs_int.app.retries', direction: 'desc' }],
    limit: 3,
  });
  assert.deepEqual(
    got.spans.map((s: Record<string, unknown>) => [s.custom_attrs_int, s.custom_attrs_string]),
    [
      [{ 'app.retries': 5 }, {}],
      [{ 'app.retries': 4 }, {}],
      [{ 'app.retries': 3 }, {}],
    ],
  );
  const whole = await expectPost(t, '/agents/spans/query', {
    project_id: P,
    query: { $expr: { $eq: [{ $getField: 'conversation_id' }, { $literal: 'conv-b' }] } },
    custom_attr_columns: [{ source: 'custom_attrs_string', key: 'app.tenant' }],
    sort_by: [{ field: 'started_at', direction: 'asc' }],
  });
  assert.deepEqual(whole.spans[0].custom_attrs_string, { 'app.tenant': 'acme' });
  await expectPost(
    t,
    '/agents/spans/query',
    { project_id: P, custom_attr_columns: [{ key: 'agent_name' }] },
    400,
    /custom_attr_columns must reference custom attr sources/,
  );
  await expectPost(
    t,
    '/agents/spans/query',
    { project_id: P, ...byConversation, custom_attr_columns: [{ source: 'custom_attrs_int', key: 'x' }] },
    400,
    /only supported for ungrouped spans/,
  );
  await expectPost(
    t,
    '/agents/spans/query',
    { project_id: P, custom_attr_columns: [{ source: 'custom_attrs_int' }] },
    422,
  );
});
