// /agents/search through HTTP: whole words in any order and "quoted phrases" over the messages
// of agent spans (inputs, outputs, system instructions, tool arguments and results), one hit
// per identical message in a conversation (a model call repeats the history), at its first
// occurrence, grouped by conversation; an empty query lists first occurrences by the filters; a
// span sent again replaces its messages; mistakes in the query answer 400. The first
// occurrence's rules (repeats, re-sent spans, late roots, purges): agents-search-first.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { hexId, type TestSpan } from './helpers/agent-spans.js';
import { searchProject } from './helpers/search-project.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const parts = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
const T0 = Date.UTC(2026, 10, 20, 12);

/** A fresh project and a sender of spans to it. */
const project = () => searchProject(t, 'search');

/** One turn: an agent span and a model call under it that repeats the history, and a tool. */
function turn(conversation: string | null, history: string[], answer: string, startMs: number): TestSpan[] {
  const traceId = hexId(16);
  const root = hexId(8);
  const conv: Record<string, string> = conversation === null ? {} : { 'gen_ai.conversation.id': conversation };
  const input = JSON.stringify(history.map((h, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: h })));
  return [
    {
      traceId,
      spanId: root,
      name: 'invoke_agent helper',
      startMs,
      endMs: startMs + 1000,
      attributes: {
        ...conv,
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'helper',
        'gen_ai.conversation.name': 'Travel desk',
        'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'You are a travel agent.' }]),
        'gen_ai.input.messages': parts('user', history.at(-1)!),
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'chat gpt-4o',
      startMs: startMs + 100,
      endMs: startMs + 500,
      attributes: {
        ...conv,
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.input.messages': input,
        'gen_ai.output.messages': parts('assistant', answer),
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'execute_tool find_flight',
      startMs: startMs + 600,
      endMs: startMs + 700,
      attributes: {
        ...conv,
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'find_flight',
        'gen_ai.tool.call.arguments': '{"to":"Lisbon","class":"economy"}',
        'gen_ai.tool.call.result': '{"flight":"TP1234","price_eur":180}',
      },
    },
  ];
}

type Result = {
  conversation_id: string;
  conversation_name: string;
  agent_name: string;
  last_activity: string;
  matched_messages: {
    role: string;
    content_preview: string;
    content_digest: string;
    span_id: string;
    trace_id: string;
  }[];
};
const texts = (r: { results: Result[] }) =>
  r.results.map((c) => [c.conversation_id, c.matched_messages.map((m) => `${m.role}:${m.content_preview}`)]);

test('words in any order, phrases in order, case and punctuation ignored; history counted once', async () => {
  const p = project();
  await p.send(turn('c-lisbon', ['Book me a flight to Lisbon, please!'], 'Found TP1234 for 180 EUR.', T0));
  await p.send(
    turn(
      'c-lisbon',
      ['Book me a flight to Lisbon, please!', 'Found TP1234 for 180 EUR.', 'Is there a window seat?'],
      'Yes: seat 12A is a window seat.',
      T0 + 60_000,
    ),
  );
  await p.send(turn('c-porto', ['A train to Porto?'], 'The 9:00 train, from Lisbon Oriente.', T0 + 120_000));

  const lisbon = await p.search({ query: 'LISBON flight' });
  assert.deepEqual(
    texts(lisbon),
    [['c-lisbon', ['user:Book me a flight to Lisbon, please!']]],
    'the question appears in four spans (two turns, agent and model) and counts once',
  );
  assert.equal(lisbon.total_conversations, 1);
  const [hit] = lisbon.results[0]!.matched_messages;
  assert.equal(
    hit!.content_digest,
    createHash('sha256').update('Book me a flight to Lisbon, please!').digest('hex').slice(0, 32),
  );
  assert.equal(lisbon.results[0]!.conversation_name, 'Travel desk');
  assert.equal(lisbon.results[0]!.agent_name, 'helper');
  assert.equal(lisbon.results[0]!.last_activity, new Date(T0 + 61_000).toISOString());

  const phrase = await p.search({ query: '"window seat"' });
  assert.deepEqual(texts(phrase), [
    ['c-lisbon', ['assistant:Yes: seat 12A is a window seat.', 'user:Is there a window seat?']],
  ]);
  assert.equal((await p.search({ query: '"seat window"' })).results.length, 0, 'a phrase keeps its order');
  assert.equal((await p.search({ query: 'lisb' })).results.length, 0, 'whole words only');
  assert.deepEqual(texts(await p.search({ query: 'oriente TRAIN lisbon' })), [
    ['c-porto', ['assistant:The 9:00 train, from Lisbon Oriente.']],
  ]);
  assert.equal((await p.search({ query: 'lisbon TP1234' })).results.length, 0, 'every word in one message');
  assert.deepEqual(
    texts(await p.search({ query: 'flight-to-Lisbon!' })),
    [['c-lisbon', ['user:Book me a flight to Lisbon, please!']]],
    'punctuation separates words: flight-to-Lisbon is the phrase "flight to lisbon"',
  );
  const tools = await p.search({ query: 'economy' });
  assert.deepEqual(texts(tools), [
    ['c-porto', ['tool_call:{"to":"Lisbon","class":"economy"}']],
    ['c-lisbon', ['tool_call:{"to":"Lisbon","class":"economy"}']],
  ]);
  assert.equal(tools.total_conversations, 2);
  assert.deepEqual(
    texts(await p.search({ query: 'travel agent' })).map(([c, m]) => [c, (m as string[]).length]),
    [
      ['c-porto', 1],
      ['c-lisbon', 1],
    ],
    'system instructions, once per conversation, newest conversation first',
  );
});

test('filters: roles, conversation, trace, agent (owner of a model call), provider, model, time', async () => {
  const p = project();
  const a = turn('c-a', ['Where is my parcel?'], 'Your parcel ships today.', T0);
  const b = turn(null, ['Parcel to Oslo?'], 'A parcel to Oslo takes 3 days.', T0 + 3_600_000);
  await p.send(a);
  await p.send(b);
  const all = await p.search({ query: 'parcel' });
  assert.deepEqual(texts(all), [
    ['__NO_CONVERSATION__', ['assistant:A parcel to Oslo takes 3 days.', 'user:Parcel to Oslo?']],
    ['c-a', ['assistant:Your parcel ships today.', 'user:Where is my parcel?']],
  ]);
  assert.equal(all.total_conversations, 2);
  const roles = async (body: Record<string, unknown>) =>
    (await p.search({ query: 'parcel', ...body })).results.flatMap((r: Result) =>
      r.matched_messages.map((m) => `${r.conversation_id}/${m.role}`),
    );
  assert.deepEqual(await roles({ roles: ['user'] }), ['__NO_CONVERSATION__/user', 'c-a/user']);
  assert.deepEqual(await roles({ conversation_id: 'c-a' }), ['c-a/assistant', 'c-a/user']);
  assert.deepEqual(await roles({ trace_id: b[0]!.traceId }), [
    '__NO_CONVERSATION__/assistant',
    '__NO_CONVERSATION__/user',
  ]);
  assert.equal((await roles({ agent_name: 'helper' })).length, 4, 'the model call belongs to its agent');
  assert.equal((await roles({ agent_name: 'someone-else' })).length, 0);
  assert.deepEqual(await roles({ request_model: 'gpt-4o', roles: ['assistant'] }), [
    '__NO_CONVERSATION__/assistant',
    'c-a/assistant',
  ]);
  assert.equal((await roles({ provider_name: 'anthropic' })).length, 0);
  assert.deepEqual(await roles({ started_after: new Date(T0 + 1_800_000).toISOString() }), [
    '__NO_CONVERSATION__/assistant',
    '__NO_CONVERSATION__/user',
  ]);
  assert.deepEqual(await roles({ started_before: new Date(T0 + 1_800_000).toISOString() }), [
    'c-a/assistant',
    'c-a/user',
  ]);
});

test('an empty query lists every first occurrence the filters select; pages count messages', async () => {
  const p = project();
  const spans = turn('c-e', ['One', 'Two', 'Three?'], 'x'.repeat(600), T0);
  await p.send(spans);
  const chat = spans[1]!.spanId;
  const listed = await p.search({ query: '', trace_id: spans[0]!.traceId, limit: 100 });
  assert.deepEqual(
    listed.results[0].matched_messages.map((m: Result['matched_messages'][number]) => [
      m.span_id === chat ? 'chat' : m.span_id === spans[0]!.spanId ? 'agent' : 'tool',
      m.role,
      m.content_preview.length,
    ]),
    [
      ['tool', 'tool_call', 33],
      ['tool', 'tool_result', 35],
      ['chat', 'user', 3],
      ['chat', 'assistant', 3],
      ['chat', 'assistant', 500],
      ['agent', 'system', 23],
      ['agent', 'user', 6],
    ],
    'newest span first, each span in its order (the question was said first by the agent span); previews stop at 500 characters',
  );
  const whole = await p.search({ trace_id: spans[0]!.traceId, roles: ['assistant'], truncate_content: false });
  assert.deepEqual(
    whole.results[0].matched_messages.map((m: Result['matched_messages'][number]) => m.content_preview.length),
    [3, 600],
  );
  const second = await p.search({ trace_id: spans[0]!.traceId, limit: 3, offset: 3 });
  assert.deepEqual(
    second.results[0].matched_messages.map((m: Result['matched_messages'][number]) => m.role),
    ['assistant', 'assistant', 'system'],
  );
  assert.equal(second.total_conversations, 1);
});

test('a span sent again replaces its messages; other projects stay unseen', async () => {
  const p = project();
  const spans = turn('c-r', ['Refund order 77?'], 'Refund approved.', T0);
  await p.send(spans);
  assert.equal((await p.search({ query: 'approved' })).results.length, 1);
  const again = spans.map((s, i) =>
    i === 1
      ? { ...s, attributes: { ...s.attributes, 'gen_ai.output.messages': parts('assistant', 'Refund declined.') } }
      : s,
  );
  await p.send(again);
  assert.equal((await p.search({ query: 'approved' })).results.length, 0);
  assert.deepEqual(texts(await p.search({ query: 'declined' })), [['c-r', ['assistant:Refund declined.']]]);
  const other = project();
  assert.deepEqual(await other.search({ query: 'refund' }), { results: [], total_conversations: 0 });
});

test('mistakes answer 4xx with what is wrong', async () => {
  const p = project();
  const bad = async (body: unknown, status: number, pattern: RegExp) => {
    const r = await t.post('/agents/search', body);
    assert.equal(r.status, status, r.text);
    assert.match(JSON.stringify(r.body), pattern);
  };
  await bad({ project_id: p.id, query: 'say "hello' }, 400, /quoted phrase is not closed/);
  await bad({ project_id: p.id, query: '?!, --' }, 400, /only punctuation/);
  await bad({ project_id: p.id, query: 'x', limit: 1001 }, 422, /limit/);
  await bad({ project_id: p.id, query: 'x', colour: 'red' }, 422, /colour/);
  await bad({ project_id: p.id, started_after: 'yesterday' }, 422, /started_after/);
  await bad({ query: 'x' }, 422, /project_id/);
  const raw = await t.postRaw('/agents/search', '{"project_id": ', 'application/json');
  assert.equal(raw.status, 400, raw.text);
});
