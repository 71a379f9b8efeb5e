// /agents/otel/v1/traces and /agents/spans/query through HTTP: GenAI attributes promoted to
// columns (canonical weave.* over gen_ai.* aliases), messages normalized, the rest in typed
// custom attribute maps, the project from the resource before the header, spans without a
// project rejected in partial_success, re-sent spans replacing themselves, and each span's
// owner agent settled even when a child arrives before its parent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
const [ENTITY, NAME] = PROJECT.split('/') as [string, string];
const RESOURCE = { 'wandb.entity': ENTITY, 'wandb.project': NAME };

before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const send = (body: string, headers: Record<string, string> = {}) =>
  t.postRaw('/agents/otel/v1/traces', body, 'application/json', headers);
const spans = async (body: Record<string, unknown> = {}) => {
  const r = await t.post('/agents/spans/query', { project_id: PROJECT, ...body });
  assert.equal(r.status, 200, r.text);
  return r.body as { spans: Record<string, unknown>[]; groups: unknown[]; total_count: number };
};

function turn(conversation: string, start: number) {
  const traceId = hexId(16);
  const root: TestSpan = {
    traceId,
    spanId: hexId(8),
    name: 'invoke_agent support',
    startMs: start,
    endMs: start + 900,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support',
      'gen_ai.agent.version': 'v2',
      'gen_ai.conversation.id': conversation,
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
      ]),
    },
  };
  const chat: TestSpan = {
    traceId,
    spanId: hexId(8),
    parentSpanId: root.spanId,
    name: 'chat gpt-4o',
    startMs: start + 10,
    endMs: start + 500,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'weave.request.model': 'gpt-4o-2024-08-06',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.request.temperature': 0.5,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.conversation.id': conversation,
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: 'Sunny, 21 °C.' }], finish_reason: 'stop' },
      ]),
      'app.tenant': 'acme',
      'app.retries': 2,
      'app.cached': true,
      'app.ratio': 0.25,
    },
  };
  return { root, chat };
}

test('GenAI attributes become columns, the weave.* key winning; the rest lands in typed custom maps', async () => {
  const conv = `conv-${hexId(4)}`;
  const { root, chat } = turn(conv, Date.now());
  const r = await send(otlpJson(RESOURCE, [root, chat]));
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {});
  const got = await spans({ query: { $expr: { $eq: [{ $getField: 'gen_ai.conversation.id' }, { $literal: conv }] } } });
  assert.equal(got.total_count, 2);
  const c = got.spans.find((s) => s.span_id === chat.spanId)!;
  assert.equal(c.request_model, 'gpt-4o-2024-08-06');
  assert.equal(c.operation_name, 'chat');
  assert.equal(c.input_tokens, 120);
  assert.equal(c.output_tokens, 30);
  assert.equal(c.request_temperature, 0.5);
  assert.deepEqual(c.finish_reasons, ['stop']);
  assert.deepEqual(c.output_messages, [{ role: 'assistant', content: 'Sunny, 21 °C.', finish_reason: 'stop' }]);
  assert.deepEqual(c.custom_attrs_string, { 'app.tenant': 'acme' });
  assert.deepEqual(c.custom_attrs_int, { 'app.retries': 2 });
  assert.deepEqual(c.custom_attrs_bool, { 'app.cached': true });
  assert.deepEqual(c.custom_attrs_float, { 'app.ratio': 0.25 });
  assert.equal(c.parent_span_id, root.spanId);
  assert.equal(c.raw_span_dump, null, 'the raw span only with include_details');
  assert.equal(c.total_cost_usd, null, 'costs only with include_costs');
  const priced = await spans({
    include_costs: true,
    query: { $expr: { $eq: [{ $getField: 'span_id' }, { $literal: chat.spanId }] } },
  });
  // gpt-4o-2024-08-06: $2.50 per million input tokens, $10 per million output tokens.
  assert.ok(Math.abs(Number(priced.spans[0]!.total_cost_usd) - (120 * 2.5 + 30 * 10) / 1e6) < 1e-12);
  assert.ok(Math.abs(Number(priced.spans[0]!.input_cost_usd) - (120 * 2.5) / 1e6) < 1e-12);
  const rootRow = got.spans.find((s) => s.span_id === root.spanId)!;
  assert.deepEqual(rootRow.input_messages, [{ role: 'user', content: 'Weather in Paris?', finish_reason: null }]);
  assert.equal(rootRow.agent_version, 'v2');
  assert.match(String(rootRow.started_at), /^\d{4}-\d{2}-\d{2}T/);
  const detailed = await spans({
    include_details: true,
    query: { $expr: { $eq: [{ $getField: 'span_id' }, { $literal: chat.spanId }] } },
  });
  assert.equal(JSON.parse(String(detailed.spans[0]!.raw_span_dump)).name, 'chat gpt-4o');
});

test('a span belongs to the agent of its nearest invoke_agent ancestor, even when it arrives first', async () => {
  const conv = `conv-${hexId(4)}`;
  const { root, chat } = turn(conv, Date.now());
  assert.equal((await send(otlpJson(RESOURCE, [chat]))).status, 200);
  const only = await spans({ query: { $expr: { $eq: [{ $getField: 'span_id' }, { $literal: chat.spanId }] } } });
  assert.equal(only.spans[0]!.owner_agent_name, null);
  assert.equal((await send(otlpJson(RESOURCE, [root]))).status, 200);
  const both = await spans({ query: { $expr: { $eq: [{ $getField: 'conversation_id' }, { $literal: conv }] } } });
  for (const s of both.spans) {
    assert.equal(s.owner_agent_name, 'support', String(s.span_name));
    assert.equal(s.owner_agent_version, 'v2');
  }
});

test('a re-sent span replaces itself', async () => {
  const conv = `conv-${hexId(4)}`;
  const { root } = turn(conv, Date.now());
  await send(otlpJson(RESOURCE, [root]));
  await send(otlpJson(RESOURCE, [{ ...root, attributes: { ...root.attributes, 'gen_ai.agent.version': 'v3' } }]));
  const got = await spans({ query: { $expr: { $eq: [{ $getField: 'conversation.id' }, { $literal: conv }] } } });
  assert.equal(got.total_count, 1);
  assert.equal(got.spans[0]!.agent_version, 'v3');
  assert.equal(got.spans[0]!.owner_agent_version, 'v3');
});

test('the resource names the project before the header; a span with neither is rejected, never stored', async () => {
  const other = `${ENTITY}/agents-other-${hexId(3)}`;
  const named = turn('c-header', Date.now()).root;
  const r = await send(otlpJson({}, [named]), { project_id: other });
  assert.equal(r.status, 200, r.text);
  const inOther = await t.post('/agents/spans/query', { project_id: other });
  assert.equal(inOther.body.total_count, 1);
  const both = turn('c-both', Date.now()).root;
  await send(otlpJson(RESOURCE, [both]), { project_id: other });
  assert.equal((await t.post('/agents/spans/query', { project_id: other })).body.total_count, 1, 'the resource won');
  const lost = turn('c-none', Date.now()).root;
  const none = await send(otlpJson({}, [lost]));
  assert.equal(none.status, 200);
  assert.equal(none.body.partialSuccess.rejectedSpans, '1');
  assert.match(none.body.partialSuccess.errorMessage, /no project/);
});

test('filters, sorting and paging; unknown fields and grouped options without group_by are a clear 4xx', async () => {
  const conv = `conv-${hexId(4)}`;
  const t0 = Date.now();
  for (let i = 0; i < 3; i++) {
    const { root, chat } = turn(conv, t0 + i * 1000);
    await send(otlpJson(RESOURCE, [root, chat]));
  }
  const inConv = { $eq: [{ $getField: 'conversation_id' }, { $literal: conv }] };
  const q = { $expr: inConv };
  const page = await spans({ query: q, limit: 2, offset: 1, sort_by: [{ field: 'started_at', direction: 'asc' }] });
  assert.equal(page.total_count, 6);
  assert.equal(page.spans.length, 2);
  assert.ok(String(page.spans[0]!.started_at) <= String(page.spans[1]!.started_at));
  const byAttr = await spans({
    query: {
      $expr: { $and: [inConv, { $eq: [{ $getField: 'custom_attrs_string.app.tenant' }, { $literal: 'acme' }] }] },
    },
  });
  assert.equal(byAttr.total_count, 3);
  const bad = await t.post('/agents/spans/query', { project_id: PROJECT, sort_by: [{ field: 'nope' }] });
  assert.equal(bad.status, 422, bad.text);
  const measured = await t.post('/agents/spans/query', {
    project_id: PROJECT,
    measures: [{ alias: 'n', aggregation: 'count' }],
  });
  assert.equal(measured.status, 400, measured.text);
  const malformed = await t.post('/agents/spans/query', { project_id: PROJECT, limit: -1 });
  assert.equal(malformed.status, 422, malformed.text);
  const notOtlp = await t.postRaw('/agents/otel/v1/traces', '{"resourceSpans": 5}', 'application/json');
  assert.equal(notOtlp.status, 400, notOtlp.text);
});
