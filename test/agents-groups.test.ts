// /agents/spans/query with group_by through HTTP: the conversations list as Weave's Agents view
// reads it (one group per conversation with its figures, agents, models and first and last
// messages), grouping by short field names and custom attributes, sorting and paging groups,
// costs, and mistakes answering 4xx (group filters, distributions and signals: their own files).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
const ENTITY = PROJECT.split('/')[0]!;
const P = `${ENTITY}/agents-groups-${hexId(4)}`;

const parts = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

function turn(conv: string, agent: string, q: string, a: string, startMs: number, status: 0 | 2 = 0): TestSpan[] {
  const traceId = hexId(16);
  const root = hexId(8);
  return [
    {
      traceId,
      spanId: root,
      name: `invoke_agent ${agent}`,
      startMs,
      endMs: startMs + 1000,
      status,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': agent,
        'gen_ai.conversation.id': conv,
        'gen_ai.input.messages': parts('user', q),
        'gen_ai.output.messages': parts('assistant', a),
        // The agent span repeats its model call's tokens (as Strands does): counted once.
        'gen_ai.usage.input_tokens': 100,
        'app.tenant': conv === 'conv-a' ? 'acme' : 'globex',
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'chat gpt-4o',
      startMs: startMs + 10,
      endMs: startMs + 500,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.conversation.id': conv,
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.output_tokens': 10,
        'gen_ai.output.messages': parts('assistant', a),
      },
    },
  ];
}

before(async () => {
  t = await startTestApp();
  const t0 = Date.UTC(2026, 10, 27, 8);
  const spans = [
    ...turn('conv-a', 'support', 'Hi A', 'Hello A', t0),
    ...turn('conv-a', 'support', 'Again A', 'Bye A', t0 + 60_000),
    ...turn('conv-b', 'sales', 'Hi B', 'Hello B', t0 + 120_000, 2),
  ];
  const [e, p] = P.split('/') as [string, string];
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson({ 'wandb.entity': e, 'wandb.project': p }, spans),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);
});
after(async () => {
  await t.close();
});

const grouped = async (body: Record<string, unknown>) => {
  const r = await t.post('/agents/spans/query', { project_id: P, ...body });
  assert.equal(r.status, 200, r.text);
  return r.body as { spans: unknown[]; groups: Record<string, any>[]; total_count: number };
};

test('grouped by conversation: one row each, with figures, agents, models and first and last messages', async () => {
  const got = await grouped({ group_by: [{ key: 'conversation_id' }], include_costs: true });
  assert.equal(got.total_count, 2);
  assert.deepEqual(got.spans, []);
  const [b, a] = got.groups; // newest activity first
  assert.deepEqual(a!.group_keys, { conversation_id: 'conv-a' });
  assert.deepEqual(
    {
      spans: a!.span_count,
      invocations: a!.invocation_count,
      conversations: a!.conversation_count,
      turns: a!.turn_count,
      input: a!.total_input_tokens,
      output: a!.total_output_tokens,
      errors: a!.error_count,
      duration: a!.total_duration_ms,
      agents: a!.agent_names,
      models: a!.request_models,
      first: a!.first_message,
      last: a!.last_message,
    },
    {
      spans: 4,
      invocations: 2,
      conversations: 1,
      turns: 2,
      input: 200,
      output: 20,
      errors: 0,
      duration: 2 * (1000 + 490),
      agents: ['support'],
      models: ['gpt-4o'],
      first: { role: 'user_message', text: 'Hi A' },
      last: { role: 'assistant_message', text: 'Bye A' },
    },
  );
  assert.equal(a!.first_seen, '2026-11-27T08:00:00.000Z');
  assert.ok(Math.abs(a!.total_cost_usd - (200 * 2.5 + 20 * 10) / 1e6) < 1e-12, String(a!.total_cost_usd));
  assert.equal(b!.group_keys.conversation_id, 'conv-b');
  assert.equal(b!.error_count, 1);
  assert.deepEqual(b!.metrics, {});
});

test('group keys by short name or custom attribute; groups sort and page', async () => {
  const byAgent = await grouped({
    group_by: [{ key: 'agent.name' }],
    query: { $expr: { $eq: [{ $getField: 'operation_name' }, { $literal: 'invoke_agent' }] } },
    sort_by: [{ field: 'invocation_count', direction: 'desc' }],
  });
  assert.deepEqual(
    byAgent.groups.map((g) => [g.group_keys.agent_name, g.invocation_count]),
    [
      ['support', 2],
      ['sales', 1],
    ],
  );
  const byTenant = await grouped({
    group_by: [{ source: 'custom_attrs_string', key: 'app.tenant', alias: 'tenant' }],
    query: { $expr: { $eq: [{ $getField: 'operation_name' }, { $literal: 'invoke_agent' }] } },
    sort_by: [{ field: 'tenant', direction: 'asc' }],
  });
  assert.deepEqual(
    byTenant.groups.map((g) => g.group_keys),
    [{ tenant: 'acme' }, { tenant: 'globex' }],
  );
  const page = await grouped({
    group_by: [{ key: 'conversation_id' }],
    limit: 1,
    offset: 1,
    sort_by: [{ field: 'span_count', direction: 'desc' }],
  });
  assert.equal(page.total_count, 2);
  assert.deepEqual(
    page.groups.map((g) => g.group_keys.conversation_id),
    ['conv-b'],
  );
});

test('measures: aggregations over a value, each over the spans its filter keeps; sortable', async () => {
  const chats = { $expr: { $eq: [{ $getField: 'operation_name' }, { $literal: 'chat' }] } };
  const got = await grouped({
    group_by: [{ key: 'conversation_id' }],
    measures: [
      {
        alias: 'errors',
        aggregation: 'count',
        filter: { $expr: { $eq: [{ $getField: 'status_code' }, { $literal: 'ERROR' }] } },
      },
      { alias: 'chat_ms', aggregation: 'avg', value: { source: 'derived', key: 'duration_ms' }, filter: chats },
      { alias: 'input', aggregation: 'sum', value: { key: 'gen_ai.usage.input_tokens' }, value_type: 'number' },
      { alias: 'tenants', aggregation: 'count_distinct', value: { source: 'custom_attrs_string', key: 'app.tenant' } },
      { alias: 'failed', aggregation: 'count_true', value: { source: 'derived', key: 'is_error' } },
    ],
    sort_by: [{ field: 'input', direction: 'asc' }],
  });
  assert.deepEqual(
    got.groups.map((g) => [g.group_keys.conversation_id, g.metrics]),
    [
      ['conv-b', { errors: 1, chat_ms: 490, input: 200, tenants: 1, failed: 1 }],
      // The raw field counts the agent span's repeat of its model call's tokens: the rollups do not.
      ['conv-a', { errors: 0, chat_ms: 490, input: 400, tenants: 1, failed: 0 }],
    ],
  );
});

test('grouping mistakes are a 400, unknown fields a 422', async () => {
  const bad = async (body: Record<string, unknown>, status: number) => {
    const r = await t.post('/agents/spans/query', { project_id: P, ...body });
    assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
  };
  await bad({ measures: [{ alias: 'n', aggregation: 'count' }] }, 400);
  const g = { group_by: [{ key: 'conversation_id' }] };
  await bad({ ...g, measures: [{ alias: 'span_count', aggregation: 'count' }] }, 400);
  await bad({ ...g, measures: [{ alias: 'x', aggregation: 'sum' }] }, 400);
  await bad({ ...g, measures: [{ alias: 'x', aggregation: 'sum', value: { key: 'span_name' } }] }, 400);
  await bad(
    { ...g, measures: [{ alias: 'x', aggregation: 'count', value: { key: 'span_name' }, value_type: 'number' }] },
    400,
  );
  await bad({ ...g, measures: [{ alias: 'x y', aggregation: 'count' }] }, 422);
  await bad({ ...g, group_filters: [{}] }, 422);
  await bad({ group_by: [{ key: 'conversation_id' }], include_details: true }, 400);
  await bad({ group_by: [{ key: 'nope' }] }, 422);
  await bad({ group_by: [{ key: 'conversation_id' }], sort_by: [{ field: 'nope' }] }, 422);
  await bad({ group_by: [{ source: 'elsewhere', key: 'x' }] }, 422);
});

test('the custom attribute keys of the matching spans, with their types and counts', async () => {
  const schema = async (body: Record<string, unknown>) => {
    const r = await t.post('/agents/spans/custom-attrs/schema', { project_id: P, ...body });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  assert.deepEqual(await schema({}), {
    attributes: [{ source: 'custom_attrs_string', key: 'app.tenant', value_type: 'string', span_count: 3 }],
    limit: 200,
    offset: 0,
    has_more: false,
  });
  const chats = await schema({ query: { $expr: { $eq: [{ $getField: 'operation_name' }, { $literal: 'chat' }] } } });
  assert.deepEqual(chats.attributes, []);
  const empty = await schema({ offset: 1 });
  assert.deepEqual([empty.attributes, empty.has_more], [[], false]);
  assert.equal((await t.post('/agents/spans/custom-attrs/schema', { project_id: P, limit: 2001 })).status, 422);
});

test("each conversation's span sequence, by start, for the conversations list", async () => {
  const r = await t.post('/agents/conversations/spans', {
    project_id: P,
    conversation_ids: ['conv-b', 'conv-a', 'nope'],
  });
  assert.equal(r.status, 200, r.text);
  const [b, a, none] = r.body.conversations;
  assert.deepEqual(
    a.spans.map((s: { operation_name: string; status: string; duration_ms: number }) => [
      s.operation_name,
      s.status,
      s.duration_ms,
    ]),
    [
      ['invoke_agent', 'UNSET', 1000],
      ['chat', 'UNSET', 490],
      ['invoke_agent', 'UNSET', 1000],
      ['chat', 'UNSET', 490],
    ],
  );
  assert.equal(b.conversation_id, 'conv-b');
  assert.equal(b.spans[0].status, 'ERROR');
  assert.deepEqual(none, { conversation_id: 'nope', spans: [], spans_feedback: [] });
  const later = await t.post('/agents/conversations/spans', {
    project_id: P,
    conversation_ids: ['conv-a'],
    started_after: '2026-11-27T08:00:30Z',
  });
  assert.equal(later.body.conversations[0].spans.length, 2);
  const naive = await t.post('/agents/conversations/spans', {
    project_id: P,
    conversation_ids: ['conv-a'],
    started_after: '2026-11-27T08:00:30',
  });
  assert.equal(naive.status, 422, 'a time without its zone is refused, as in Weave');
});
