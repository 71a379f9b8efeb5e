// Google ADK JS (@google/adk) run for real: an LlmAgent with one FunctionTool on a Gemini model,
// pointed at the local stand-in by GOOGLE_GEMINI_BASE_URL (ADK has no OpenAI adapter), two
// turns of one InMemoryRunner session, its spans exported through the OTLP/JSON exporter ADK
// itself depends on, to a real Weft, then read back through the agent API. ADK's model span
// (`call_llm`) has no gen_ai.operation.name and carries its messages only as the Gemini request
// and response JSON (gcp.vertex.agent.llm_request / llm_response); the session is the
// conversation (gen_ai.conversation.id).
//
// The provider is registered before ADK is imported: ADK pins @opentelemetry/api 1.9.0 and
// takes its tracer when its module loads, so maybeSetOtelProviders() in a process whose own
// API is another version registers a provider ADK's tracer never reaches (no spans at all).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { z } from 'zod';
import {
  agentsOf,
  chatOutline,
  conversationChat,
  countByOperation,
  spansOf,
  startFrameworkRig,
  toolCallsOf,
  traceChat,
  traceIdsOf,
  type FrameworkRig,
} from './helpers/agent-frameworks.js';
import { finalAnswer, forecast, USAGE } from './helpers/model-standin.js';

const PROJECT = 'adk/weather';
const GEMINI = 'gemini-2.5-flash';
const QUESTIONS = [
  ['What is the weather in Paris?', 'Paris'],
  ['And in Berlin?', 'Berlin'],
] as const;

let rig: FrameworkRig;
let provider: NodeTracerProvider;
before(async () => {
  rig = await startFrameworkRig();
  process.env.GOOGLE_GEMINI_BASE_URL = rig.model.url;
  process.env.GOOGLE_API_KEY = 'standin-key';
  const adkRequire = createRequire(createRequire(import.meta.url).resolve('@google/adk'));
  const { OTLPTraceExporter } = await import(adkRequire.resolve('@opentelemetry/exporter-trace-otlp-http'));
  provider = new NodeTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: rig.tracesUrl, headers: rig.headers(PROJECT) })),
    ],
  });
  provider.register();
});
after(async () => {
  await provider.shutdown();
  await rig.close();
});

test('ADK: agent, model calls read from the Gemini request and response, tool, session as conversation', async () => {
  const adk = await import('@google/adk');
  adk.setLogLevel(adk.LogLevel.ERROR);
  adk.maybeSetOtelProviders(); // a provider is set already: ADK keeps it
  const getWeather = new adk.FunctionTool({
    name: 'get_weather',
    description: 'The weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }: { city: string }) => forecast(city),
  });
  const agent = new adk.LlmAgent({
    name: 'weather_agent',
    model: GEMINI,
    description: 'Reports the weather',
    instruction: 'You report the weather.',
    tools: [getWeather],
  });
  const runner = new adk.InMemoryRunner({ agent, appName: 'weather_app' });
  const session = await runner.sessionService.createSession({ appName: 'weather_app', userId: 'user-1' });
  const replies: string[] = [];
  for (const [q] of QUESTIONS) {
    const text: string[] = [];
    for await (const ev of runner.runAsync({
      userId: 'user-1',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: q }] },
    }))
      for (const p of ev.content?.parts ?? []) if (p.text) text.push(p.text);
    replies.push(text.join(''));
  }
  await provider.forceFlush();
  assert.deepEqual(replies, [finalAnswer('Paris'), finalAnswer('Berlin')]);
  assert.deepEqual(
    rig.model.calls.map((c) => [c.path, c.round]),
    ['tool', 'final', 'tool', 'final'].map((r) => [`/v1beta/models/${GEMINI}:generateContent`, r]),
  );

  const spans = await spansOf(rig, PROJECT);
  // Per turn: the `invocation` root (no attributes), invoke_agent, two call_llm, one tool.
  assert.deepEqual(countByOperation(spans), { none: 2, invoke_agent: 2, chat: 4, execute_tool: 2 });
  const traces = traceIdsOf(spans);
  assert.equal(traces.length, 2, 'a trace per turn');
  const agents = spans.filter((s) => s.operation_name === 'invoke_agent');
  assert.deepEqual(
    agents.map((s) => [s.agent_name, s.agent_description, s.agent_version, s.conversation_id]),
    [
      ['weather_agent', 'Reports the weather', null, session.id],
      ['weather_agent', 'Reports the weather', null, session.id],
    ],
  );
  const calls = spans.filter((s) => s.operation_name === 'chat');
  assert.deepEqual(
    calls.map((s) => [s.span_name, s.request_model, s.input_tokens, s.output_tokens, s.owner_agent_name]),
    [USAGE.tool, USAGE.final, USAGE.tool, USAGE.final].map((u) => [
      'call_llm',
      GEMINI,
      u.input,
      u.output,
      'weather_agent',
    ]),
  );
  // The Gemini request and response as messages: history, system instruction, the function call.
  const [first, second] = calls;
  assert.deepEqual(first!.input_messages, [
    { role: 'user', content: 'What is the weather in Paris?', finish_reason: null },
  ]);
  assert.match(first!.system_instructions[0], /You report the weather\.$/);
  assert.deepEqual(JSON.parse(first!.output_messages[0].content), [
    { type: 'tool_call', id: null, name: 'get_weather', arguments: { city: 'Paris' } },
  ]);
  assert.deepEqual(
    JSON.parse(first!.tool_definitions).map((d: any) => d.name),
    ['get_weather'],
  );
  assert.deepEqual(
    second!.input_messages.map((m: any) => m.role),
    ['user', 'assistant', 'user'],
    'the function response goes back as a user turn',
  );
  assert.deepEqual(JSON.parse(second!.input_messages[2].content), [
    { type: 'tool_call_response', id: null, name: 'get_weather', response: forecast('Paris') },
  ]);
  assert.deepEqual(second!.output_messages, [
    { role: 'assistant', content: finalAnswer('Paris'), finish_reason: 'stop' },
  ]);

  const [row] = await agentsOf(rig, PROJECT);
  assert.deepEqual(
    [row!.agent_name, row!.invocation_count, row!.span_count, row!.total_input_tokens, row!.total_output_tokens],
    ['weather_agent', 2, 8, 666, 66],
  );

  for (const [i, traceId] of traces.entries()) {
    const [question, city] = QUESTIONS[i]!;
    const chat = await traceChat(rig, PROJECT, traceId);
    assert.equal(chat.root_span_name, 'invocation');
    assert.deepEqual([chat.total_input_tokens, chat.total_output_tokens], [333, 33]);
    assert.deepEqual(chatOutline(chat), [
      ['user_message', null, question],
      ['agent_start', 'weather_agent', null],
      ['tool_call', 'weather_agent', 'get_weather'],
      ['assistant_message', 'weather_agent', finalAnswer(city)],
    ]);
    assert.deepEqual(toolCallsOf(chat), [{ name: 'get_weather', arguments: { city }, result: forecast(city) }]);
  }
  const conversation = await conversationChat(rig, PROJECT, session.id);
  assert.deepEqual(
    conversation.turns.map((t: any) => t.messages.at(-1).assistant_message.text),
    [finalAnswer('Paris'), finalAnswer('Berlin')],
  );
});
