// Grouped reads of agent spans whose filter names its conversations (conversation_id IN a list,
// or = one; /agents/search asks this for its hits' conversations, the Agents view for a picked
// page): ClickHouse reads only those conversations' traces (clickhouse/spans/span-groups.ts).
// They must answer what the same filter answers written so no plan recognizes it (an OR), with
// a span re-sent under another conversation and one moved out of any.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const NAME = `named-${hexId(4)}`;
const T0 = Date.UTC(2026, 10, 23, 8);

function span(traceId: string, spanId: string, conversation: string | null, at: number, agent: string): TestSpan {
  return {
    traceId,
    spanId,
    name: 'chat gpt-4o',
    startMs: at,
    endMs: at + 1000,
    attributes: {
      ...(conversation === null ? {} : { 'gen_ai.conversation.id': conversation }),
      'gen_ai.operation.name': 'chat',
      'gen_ai.agent.name': agent,
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 1,
    },
  };
}

async function send(spans: TestSpan[]) {
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson({ 'wandb.entity': 'acme', 'wandb.project': NAME }, spans),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);
}

async function groups(query: unknown, by: string[]) {
  const r = await t.post('/agents/spans/query', {
    project_id: `acme/${NAME}`,
    query: { $expr: query },
    group_by: by.map((key) => ({ source: 'field', key, alias: key })),
    include_costs: true,
    limit: 50,
  });
  assert.equal(r.status, 200, r.text);
  return r.body as { groups: unknown[]; total_count: number };
}

const conv = { $getField: 'conversation_id' };
const lit = (v: string) => ({ $literal: v });

test('a filter naming conversations answers as the general read does', async () => {
  const traces = Array.from({ length: 6 }, () => hexId(16));
  const ids = traces.map(() => hexId(8));
  await send(traces.map((tr, i) => span(tr, ids[i]!, `c-${i % 3}`, T0 + i * 60_000, i % 2 ? 'a' : 'b')));
  // Re-sent: one span moves from c-0 to c-2, another out of any conversation.
  await send([span(traces[0]!, ids[0]!, 'c-2', T0, 'b'), span(traces[1]!, ids[1]!, null, T0 + 60_000, 'a')]);
  const notNull = { $not: [{ $eq: [conv, { $literal: null }] }] };
  for (const by of [['conversation_id'], ['conversation_id', 'owner_agent_name']]) {
    for (const named of [['c-0', 'c-2'], ['c-1'], ['c-9']]) {
      const direct = await groups({ $and: [notNull, { $in: [conv, named.map(lit)] }] }, by);
      const unrecognized = await groups({ $or: named.map((c) => ({ $eq: [conv, lit(c)] })) }, by);
      assert.deepEqual(direct, unrecognized, `${by} ${named}`);
    }
    const one = await groups({ $eq: [conv, lit('c-2')] }, by);
    assert.deepEqual(one, await groups({ $or: [{ $eq: [conv, lit('c-2')] }] }, by));
    assert.ok(one.total_count >= 1);
  }
});
