// The Weave Conversation SDK's spans (Python, not installable here) replayed as that SDK emits
// them (shared/spec/agents.md §2.1-2.5): its tracer `weave.conversation` and resource, one trace
// per turn (`invoke_agent <agent>`), `chat <model>` under the turn, `execute_tool` under the LLM
// that asked for it, a sub-agent's `invoke_agent` in the same trace, messages as GenAI parts
// (reasoning, tool_call, tool_call_response, finish_reason on the last output), the project in
// the `project_id` header, sent through the real OTLP protobuf exporter with a batch processor;
// then read back through the agent API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { context, trace, SpanStatusCode, type Span } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { startWeftServer, type WeftServer } from './sdk/sdk-harness.js';

const PROJECT = 'sdk-team/travel';
let w: WeftServer;
const traceIds: string[] = [];

const text = (content: string) => ({ type: 'text', content });
const msgs = (...m: unknown[]) => JSON.stringify(m);

before(async () => {
  w = await startWeftServer();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': 'weave-conversation-sdk',
      'wandb.sdk.name': 'weave',
      'wandb.sdk.version': '0.53.0',
      'wandb.sdk.language': 'python',
    }),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({
          url: `${w.url}/agents/otel/v1/traces`,
          headers: { project_id: PROJECT, Authorization: `Basic ${Buffer.from('api:any-key').toString('base64')}` },
        }),
      ),
    ],
  });
  const tracer = provider.getTracer('weave.conversation');
  const conversation = {
    'gen_ai.conversation.id': 'conv-sdk-1',
    'weave.client_version': '0.53.0',
    'weave.source': 'python-sdk',
  };
  const child = <T>(parent: Span, name: string, attributes: Record<string, unknown>, body: (s: Span) => T): T => {
    const span = tracer.startSpan(name, { attributes: attributes as never }, trace.setSpan(context.active(), parent));
    try {
      return body(span);
    } finally {
      span.end();
    }
  };
  // start_turn: a fresh context, so a new trace per turn.
  const turn = (user: string, body: (t: Span) => void, error?: string) => {
    const t = tracer.startSpan(
      'invoke_agent travel-agent',
      {
        attributes: {
          ...conversation,
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': 'travel-agent',
          'gen_ai.agent.version': '2.1',
          'gen_ai.conversation.name': 'Trip to Lisbon',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.input.messages': msgs({ role: 'user', parts: [text(user)] }),
          'gen_ai.system_instructions': JSON.stringify([text('You plan trips.')]),
        },
      },
      context.active(),
    );
    traceIds.push(t.spanContext().traceId);
    body(t);
    if (error !== undefined) {
      t.recordException(new Error(error));
      t.setStatus({ code: SpanStatusCode.ERROR, message: error });
    }
    t.end();
  };
  turn('Find me a flight to Lisbon on Friday.', (t) => {
    child(
      t,
      'chat gpt-4o',
      {
        ...conversation,
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.response.model': 'gpt-4o-2024-08-06',
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 1200,
        'gen_ai.usage.output_tokens': 80,
        'gen_ai.usage.reasoning_tokens': 30,
        'gen_ai.input.messages': msgs({ role: 'user', parts: [text('Find me a flight to Lisbon on Friday.')] }),
        'gen_ai.output.messages': msgs({
          role: 'assistant',
          parts: [
            { type: 'reasoning', content: 'I should search flights first.' },
            { type: 'tool_call', id: 'call_1', name: 'search_flights', arguments: '{"to":"LIS","day":"Fri"}' },
          ],
          finish_reason: 'tool_calls',
        }),
      },
      (llm) =>
        // start_tool: a child of the LLM that asked for it.
        child(
          llm,
          'execute_tool search_flights',
          {
            ...conversation,
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': 'search_flights',
            'gen_ai.tool.call.id': 'call_1',
            'gen_ai.tool.call.arguments': '{"to":"LIS","day":"Fri"}',
            'gen_ai.tool.call.result': '[{"flight":"TP1350","eur":129}]',
          },
          () => undefined,
        ),
    );
    child(
      t,
      'chat gpt-4o',
      {
        ...conversation,
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 1400,
        'gen_ai.usage.output_tokens': 40,
        'gen_ai.usage.cache_read.input_tokens': 1000,
        'gen_ai.input.messages': msgs({
          role: 'tool',
          parts: [{ type: 'tool_call_response', id: 'call_1', response: '[{"flight":"TP1350","eur":129}]' }],
        }),
        'gen_ai.output.messages': msgs({
          role: 'assistant',
          parts: [text('TP1350 on Friday, 129 EUR. Shall I book it?')],
          finish_reason: 'stop',
        }),
      },
      () => undefined,
    );
  });
  // The user answers later: turns are ordered by their start, so the two must not share one
  // (created back to back, a clean-clone run on Node 22 gave both the same instant).
  await new Promise((r) => setTimeout(r, 5));
  turn(
    'Yes, book it.',
    (t) => {
      // start_subagent: nested invoke_agent, same trace, the conversation id inherited.
      child(
        t,
        'invoke_agent booking-agent',
        {
          ...conversation,
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': 'booking-agent',
          'gen_ai.request.model': 'claude-sonnet-4-5',
        },
        (sub) =>
          child(
            sub,
            'chat claude-sonnet-4-5',
            {
              ...conversation,
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': 'anthropic',
              'gen_ai.request.model': 'claude-sonnet-4-5',
              'gen_ai.usage.input_tokens': 300,
              'gen_ai.usage.output_tokens': 20,
              'gen_ai.output.messages': msgs({
                role: 'assistant',
                parts: [text('The payment service is down.')],
                finish_reason: 'stop',
              }),
            },
            () => undefined,
          ),
      );
    },
    'PaymentError: card declined',
  );
  await provider.forceFlush();
  await provider.shutdown();
});
after(() => w.close());

const post = async (path: string, body: Record<string, unknown>) => {
  const r = await w.t.post(path, { project_id: PROJECT, ...body });
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  return r.body;
};

test('agents and versions: the turn agent counts its model calls; the sub-agent its own', async () => {
  const { agents } = await post('/agents/query', { sort_by: [{ field: 'agent_name', direction: 'asc' }] });
  assert.deepEqual(
    agents.map((a: any) => [
      a.agent_name,
      a.invocation_count,
      a.total_input_tokens,
      a.total_output_tokens,
      a.error_count,
    ]),
    [
      ['booking-agent', 1, 300, 20, 0],
      ['travel-agent', 2, 2600, 120, 1],
    ],
  );
  const { versions } = await post('/agents/agent-versions/query', { agent_name: 'travel-agent' });
  assert.deepEqual(
    versions.map((v: any) => [v.agent_version, v.invocation_count]),
    [['2.1', 2]],
  );
});

test('a turn reads as the SDK wrote it: reasoning, the tool under its LLM, the answer', async () => {
  const chat = await post('/agents/traces/chat', { trace_id: traceIds[0] });
  assert.deepEqual(
    chat.messages.map((m: any) => m.type),
    ['user_message', 'agent_start', 'assistant_message', 'tool_call', 'assistant_message'],
  );
  const [user, start, asking, tool, answer] = chat.messages;
  assert.equal(user.user_message.text, 'Find me a flight to Lisbon on Friday.');
  assert.deepEqual([start.agent_name, start.agent_start.system_instructions], ['travel-agent', 'You plan trips.']);
  assert.equal(asking.assistant_message.reasoning_content, 'I should search flights first.');
  assert.equal(asking.assistant_message.reasoning_tokens, 30);
  assert.deepEqual(
    [tool.tool_call.tool_name, tool.tool_call.tool_arguments, tool.tool_call.tool_result],
    ['search_flights', '{"to":"LIS","day":"Fri"}', '[{"flight":"TP1350","eur":129}]'],
  );
  assert.equal(answer.assistant_message.text, 'TP1350 on Friday, 129 EUR. Shall I book it?');
  assert.deepEqual(
    [
      chat.agent_name,
      chat.agent_version,
      chat.status_code,
      chat.total_input_tokens,
      chat.total_cache_read_input_tokens,
    ],
    ['travel-agent', '2.1', 'UNSET', 2600, 1000],
  );
});

test('the conversation: two turns, the failed one with its sub-agent; spans and search', async () => {
  const conv = await post('/agents/conversations/chat', { conversation_id: 'conv-sdk-1' });
  assert.equal(conv.total_turns, 2);
  const second = conv.turns[1];
  assert.deepEqual([second.trace_id, second.status_code], [traceIds[1], 'ERROR']);
  assert.deepEqual(
    second.messages.map((m: any) => [m.type, m.agent_name]),
    [
      ['user_message', null],
      ['agent_start', 'travel-agent'],
      ['agent_start', 'booking-agent'],
      ['assistant_message', 'booking-agent'],
    ],
  );
  const { spans } = await post('/agents/spans/query', {
    query: { $expr: { $eq: [{ $getField: 'trace_id' }, { $literal: traceIds[0] }] } },
    sort_by: [{ field: 'started_at', direction: 'asc' }],
    include_details: true,
  });
  const tool = spans.find((s: any) => s.operation_name === 'execute_tool');
  const asking = spans.find((s: any) => s.span_id === tool.parent_span_id);
  assert.equal(asking.operation_name, 'chat', 'the tool is a child of the LLM that asked for it');
  assert.equal(tool.owner_agent_name, 'travel-agent');
  assert.equal(tool.custom_attrs_string['weave.source'], 'python-sdk');
  assert.match(tool.raw_span_dump, /weave-conversation-sdk/);
  const found = await post('/agents/search', { query: '"TP1350 on Friday"' });
  assert.deepEqual(
    found.results.map((r: any) => [r.conversation_id, r.conversation_name, r.agent_name, r.matched_messages.length]),
    [['conv-sdk-1', 'Trip to Lisbon', 'travel-agent', 1]],
  );
});
