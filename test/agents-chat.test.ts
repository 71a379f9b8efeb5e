// /agents/traces/chat and /agents/conversations/chat through HTTP: a turn as Weave's chat view
// shows it (user message first, agent starts, tool calls placed after the model call that asked
// for them even when clocks disagree, sub-agents, an agent's own output only when nothing under
// it spoke), header totals, and conversation pages counted back from the latest turn.
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

const parts = (role: string, ...p: Record<string, unknown>[]) => JSON.stringify([{ role, parts: p }]);

/** A turn: agent -> chat (asks for a tool) -> tool (clock skewed earlier) -> chat (answers) -> sub-agent. */
function turn(conversation: string, question: string, startMs: number): TestSpan[] {
  const traceId = hexId(16);
  const root = hexId(8);
  const sub = hexId(8);
  const conv = { 'gen_ai.conversation.id': conversation };
  return [
    {
      traceId,
      spanId: root,
      name: 'invoke_agent support',
      startMs,
      endMs: startMs + 2000,
      attributes: {
        ...conv,
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'support',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
        'gen_ai.input.messages': parts('user', { type: 'text', content: question }),
        'gen_ai.output.messages': parts('assistant', { type: 'text', content: 'mirror of the answer' }),
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'chat gpt-4o',
      startMs: startMs + 10,
      endMs: startMs + 300,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.output_tokens': 10,
        'gen_ai.output.messages': parts(
          'assistant',
          { type: 'text', content: 'Let me check.' },
          {
            type: 'tool_call',
            id: `call-${traceId.slice(0, 6)}`,
            name: 'get_weather',
            arguments: '{"city":"Paris"}',
          },
        ),
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'execute_tool get_weather',
      startMs: startMs + 5,
      endMs: startMs + 400,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.call.id': `call-${traceId.slice(0, 6)}`,
        'gen_ai.tool.call.arguments': '{"city":"Paris"}',
        'gen_ai.tool.call.result': '{"temp":21}',
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'chat gpt-4o',
      startMs: startMs + 500,
      endMs: startMs + 900,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 200,
        'gen_ai.usage.output_tokens': 20,
        'gen_ai.output.messages': parts(
          'assistant',
          { type: 'reasoning', content: 'Use the tool result.' },
          { type: 'text', content: 'Sunny, 21 °C.' },
        ),
      },
    },
    {
      traceId,
      spanId: sub,
      parentSpanId: root,
      name: 'invoke_agent researcher',
      startMs: startMs + 1000,
      endMs: startMs + 1500,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'researcher',
        'gen_ai.output.messages': parts('assistant', { type: 'text', content: 'Notes filed.' }),
        'gen_ai.usage.input_tokens': 7,
      },
    },
  ];
}

const chat = async (trace_id: string) => {
  const r = await t.post('/agents/traces/chat', { project_id: PROJECT, trace_id });
  assert.equal(r.status, 200, r.text);
  return r.body;
};

test('a turn reads as Weave shows it: user, agent, tool after the call that asked, answer, sub-agent', async () => {
  const spans = turn(`conv-${hexId(4)}`, 'Weather in Paris?', Date.UTC(2026, 10, 27, 9));
  const r = await t.postRaw('/agents/otel/v1/traces', otlpJson(RESOURCE, spans), 'application/json');
  assert.equal(r.status, 200, r.text);
  const got = await chat(spans[0]!.traceId);
  assert.deepEqual(
    got.messages.map((m: { type: string; agent_name: string | null }) => [m.type, m.agent_name]),
    [
      ['user_message', null],
      ['agent_start', 'support'],
      ['assistant_message', 'support'],
      ['tool_call', 'support'],
      ['assistant_message', 'support'],
      ['agent_start', 'researcher'],
      ['assistant_message', 'researcher'],
    ],
  );
  const [user, start, asking, tool, answer, , notes] = got.messages;
  assert.equal(
    asking.assistant_message.text,
    'Let me check.',
    'the tool (its clock earlier) comes after the call that asked',
  );
  assert.equal(user.user_message.text, 'Weather in Paris?');
  assert.equal(start.agent_start.system_instructions, 'Be brief.');
  assert.equal(start.agent_start.model, 'gpt-4o');
  assert.deepEqual(
    {
      name: tool.tool_call.tool_name,
      args: tool.tool_call.tool_arguments,
      result: tool.tool_call.tool_result,
      ms: tool.tool_call.duration_ms,
    },
    { name: 'get_weather', args: '{"city":"Paris"}', result: '{"temp":21}', ms: 395 },
  );
  assert.equal(answer.assistant_message.text, 'Sunny, 21 °C.');
  assert.equal(answer.assistant_message.reasoning_content, 'Use the tool result.');
  assert.equal(answer.assistant_message.input_tokens, 200);
  assert.ok(answer.assistant_message.total_cost_usd > 0, 'gpt-4o is priced');
  assert.equal(notes.assistant_message.text, 'Notes filed.', 'a sub-agent with nothing under it speaks its own output');
  assert.equal(notes.assistant_message.input_tokens, 7);
  assert.equal(got.root_span_name, 'invoke_agent support');
  assert.equal(got.agent_name, 'support');
  assert.equal(got.total_duration_ms, 2000);
  assert.equal(got.total_input_tokens, 307);
  assert.equal(got.total_output_tokens, 30);
  assert.equal(got.started_at, '2026-11-27T09:00:00.000Z');
  // 300 input and 30 output tokens of gpt-4o ($2.50 / $10 per million), the sub-agent's unpriced.
  assert.ok(Math.abs(got.total_cost_usd - (300 * 2.5 + 30 * 10) / 1e6) < 1e-12, String(got.total_cost_usd));
});

test('model calls started in the same millisecond read in causal order: ask, tool, answer', async () => {
  // OpenTelemetry JS starts spans at Date.now(): the answering call may tie with the asking one,
  // end "before" it, and have the smaller span id.
  const traceId = hexId(16);
  const [root, ask, answer] = ['aa00000000000001', 'ff00000000000002', '0000000000000003'];
  const at = Date.UTC(2026, 10, 27, 10);
  const spans: TestSpan[] = [
    {
      traceId,
      spanId: root,
      name: 'invoke_agent planner',
      startMs: at,
      endMs: at + 2,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'planner',
        'gen_ai.input.messages': parts('user', { type: 'text', content: 'Plan it.' }),
      },
    },
    {
      traceId,
      spanId: ask,
      parentSpanId: root,
      name: 'chat m',
      startMs: at + 1,
      endMs: at + 1.6,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.output.messages': parts(
          'assistant',
          { type: 'text', content: 'Looking.' },
          { type: 'tool_call', id: 'call_9', name: 'lookup', arguments: '{}' },
        ),
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: ask,
      name: 'execute_tool lookup',
      startMs: at + 1,
      endMs: at + 1.5,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'lookup',
        'gen_ai.tool.call.id': 'call_9',
      },
    },
    {
      traceId,
      spanId: answer,
      parentSpanId: root,
      name: 'chat m',
      startMs: at + 1,
      endMs: at + 1.2,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.input.messages': JSON.stringify([
          { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_9', response: 'ok' }] },
        ]),
        'gen_ai.output.messages': parts('assistant', { type: 'text', content: 'Done.' }),
      },
    },
  ];
  const r = await t.postRaw('/agents/otel/v1/traces', otlpJson(RESOURCE, spans), 'application/json');
  assert.equal(r.status, 200, r.text);
  const got = await chat(traceId);
  assert.deepEqual(
    got.messages.map((m: { type: string; span_id: string }) => [m.type, m.span_id]),
    [
      ['user_message', root],
      ['agent_start', root],
      ['assistant_message', ask],
      ['tool_call', spans[2]!.spanId],
      ['assistant_message', answer],
    ],
  );
});

test('a conversation pages its turns back from the latest, each page oldest first', async () => {
  const conv = `conv-${hexId(4)}`;
  const t0 = Date.UTC(2026, 10, 27, 10);
  const questions = ['first?', 'second?', 'third?'];
  for (const [i, q] of questions.entries())
    assert.equal(
      (
        await t.postRaw(
          '/agents/otel/v1/traces',
          otlpJson(RESOURCE, turn(conv, q, t0 + i * 60_000)),
          'application/json',
        )
      ).status,
      200,
    );
  const page = async (body: Record<string, unknown>) => {
    const r = await t.post('/agents/conversations/chat', { project_id: PROJECT, conversation_id: conv, ...body });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const latest = await page({ limit: 2 });
  assert.deepEqual(
    latest.turns.map((x: any) => x.messages[0].user_message.text),
    ['second?', 'third?'],
  );
  assert.deepEqual([latest.total_turns, latest.has_more, latest.limit, latest.offset], [3, true, 2, 0]);
  assert.ok(latest.total_cost_usd > 0);
  const older = await page({ limit: 2, offset: 2 });
  assert.deepEqual(
    older.turns.map((x: any) => x.messages[0].user_message.text),
    ['first?'],
  );
  assert.equal(older.has_more, false);
  const all = await page({});
  assert.equal(all.turns.length, 3);
  const none = await page({ conversation_id: 'no-such-conversation' });
  assert.deepEqual([none.turns, none.total_turns, none.has_more], [[], 0, false]);
});

test('errors: an unknown trace is 404, malformed bodies 422', async () => {
  const missing = await t.post('/agents/traces/chat', { project_id: PROJECT, trace_id: hexId(16) });
  assert.equal(missing.status, 404, missing.text);
  assert.equal((await t.post('/agents/traces/chat', { project_id: PROJECT })).status, 422);
  assert.equal(
    (await t.post('/agents/conversations/chat', { project_id: PROJECT, conversation_id: 'x', limit: 51 })).status,
    422,
  );
});
