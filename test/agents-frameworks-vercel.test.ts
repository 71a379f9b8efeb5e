// The Vercel AI SDK 7 (ai + @ai-sdk/openai) run for real: generateText with one tool and a
// step limit, two turns of one conversation against the local model stand-in, its telemetry
// through @ai-sdk/otel, exported by the OTLP protobuf exporter to a real Weft, then read back
// through the agent API. Two integrations: `OpenTelemetry` (GenAI semconv: invoke_agent / chat /
// execute_tool, the agent named by functionId, a conversation id added by enrichSpan) on the
// Responses API, and `LegacyOpenTelemetry` (the SDK's own ai.* spans and keys) on Chat
// Completions. Both put the sum of the model calls on the agent span: counted once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { z } from 'zod';
import { generateText, stepCountIs, tool, type ModelMessage } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
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
import { finalAnswer, forecast, MODEL, USAGE } from './helpers/model-standin.js';

const QUESTIONS = [
  ['What is the weather in Paris?', 'Paris'],
  ['And in Berlin?', 'Berlin'],
] as const;
const AGENT = 'weather-agent';

let rig: FrameworkRig;
before(async () => {
  rig = await startFrameworkRig();
});
after(() => rig.close());

async function converse(project: string, variant: 'semconv' | 'legacy', conversationId: string) {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'vercel-weather' }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: rig.tracesUrl, headers: rig.headers(project) })),
    ],
  });
  const tracer = provider.getTracer('ai');
  const integration =
    variant === 'semconv'
      ? new OpenTelemetry({
          tracer,
          agentSpanName: 'functionId',
          enrichSpan: ({ spanType }) =>
            spanType === 'operation' ? { 'gen_ai.conversation.id': conversationId } : undefined,
        })
      : new LegacyOpenTelemetry({ tracer });
  const openai = createOpenAI({ baseURL: `${rig.model.url}/v1`, apiKey: 'sk-standin' });
  const tools = {
    get_weather: tool({
      description: 'The weather of a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => forecast(city),
    }),
  };
  const messages: ModelMessage[] = [];
  const replies: string[] = [];
  for (const [q] of QUESTIONS) {
    messages.push({ role: 'user', content: q });
    const r = await generateText({
      model: variant === 'semconv' ? openai(MODEL) : openai.chat(MODEL),
      system: 'You report the weather.',
      messages,
      tools,
      stopWhen: stepCountIs(5),
      telemetry: { isEnabled: true, functionId: AGENT, integrations: [integration] },
    });
    replies.push(r.text);
    messages.push(...r.response.messages);
  }
  await provider.forceFlush();
  await provider.shutdown();
  return replies;
}

const VARIANTS = [
  { variant: 'semconv', api: '/v1/responses', agentSpan: `invoke_agent ${AGENT}`, chatSpan: `chat ${MODEL}` },
  {
    variant: 'legacy',
    api: '/v1/chat/completions',
    agentSpan: 'ai.generateText',
    chatSpan: 'ai.generateText.doGenerate',
  },
] as const;

for (const v of VARIANTS) {
  test(`Vercel AI SDK, ${v.variant} telemetry: agent, spans, tokens once, tools and chat`, async () => {
    const project = `vercel/${v.variant}`;
    const conversationId = `conv-vercel-${v.variant}`;
    const before = rig.model.calls.length;
    assert.deepEqual(await converse(project, v.variant, conversationId), [finalAnswer('Paris'), finalAnswer('Berlin')]);
    const calls = rig.model.calls.slice(before);
    assert.deepEqual(
      calls.map((c) => [c.path, c.round]),
      ['tool', 'final', 'tool', 'final'].map((r) => [v.api, r]),
    );

    const spans = await spansOf(rig, project);
    assert.deepEqual(
      countByOperation(spans),
      // semconv adds an agent_step span per step.
      v.variant === 'semconv'
        ? { invoke_agent: 2, agent_step: 4, chat: 4, execute_tool: 2 }
        : { invoke_agent: 2, chat: 4, execute_tool: 2 },
    );
    const traces = traceIdsOf(spans);
    assert.equal(traces.length, 2, 'a trace per turn');
    const agentSpans = spans.filter((s) => s.operation_name === 'invoke_agent');
    const perTurn = [USAGE.tool.input + USAGE.final.input, USAGE.tool.output + USAGE.final.output];
    assert.deepEqual(
      agentSpans.map((s) => [s.span_name, s.agent_name, s.input_tokens, s.output_tokens, s.tokens_counted]),
      [0, 1].map(() => [v.agentSpan, AGENT, ...perTurn, 0]),
    );
    assert.deepEqual(
      agentSpans.map((s) => s.conversation_id),
      v.variant === 'semconv' ? [conversationId, conversationId] : [null, null],
    );
    const models = spans.filter((s) => s.operation_name === 'chat');
    assert.deepEqual(
      models.map((s) => [s.span_name, s.request_model, s.input_tokens, s.output_tokens, s.owner_agent_name]),
      [USAGE.tool, USAGE.final, USAGE.tool, USAGE.final].map((u) => [v.chatSpan, MODEL, u.input, u.output, AGENT]),
    );
    for (const s of models) assert.deepEqual(s.system_instructions, ['You report the weather.']);
    // Turn 2's first model call sees turn 1 as the SDK's response.messages gave it back: its answer.
    assert.deepEqual(
      models[2]!.input_messages.map((m: any) => [m.role, m.content]),
      [
        ['user', QUESTIONS[0][0]],
        ['assistant', finalAnswer('Paris')],
        ['user', QUESTIONS[1][0]],
      ],
    );

    const [row] = await agentsOf(rig, project);
    assert.deepEqual(
      [row!.agent_name, row!.invocation_count, row!.total_input_tokens, row!.total_output_tokens, row!.error_count],
      [AGENT, 2, 2 * perTurn[0]!, 2 * perTurn[1]!, 0],
    );

    for (const [i, traceId] of traces.entries()) {
      const [question, city] = QUESTIONS[i]!;
      const chat = await traceChat(rig, project, traceId);
      assert.equal(chat.root_span_name, v.agentSpan);
      assert.equal(chat.agent_name, AGENT);
      assert.deepEqual(chatOutline(chat), [
        ['user_message', null, question],
        ['agent_start', AGENT, null],
        ['tool_call', AGENT, 'get_weather'],
        ['assistant_message', AGENT, finalAnswer(city)],
      ]);
      assert.deepEqual(toolCallsOf(chat), [{ name: 'get_weather', arguments: { city }, result: forecast(city) }]);
      const start = chat.messages.find((m: any) => m.type === 'agent_start').agent_start;
      assert.deepEqual([start.model, start.system_instructions], [MODEL, 'You report the weather.']);
      assert.deepEqual(
        [chat.total_input_tokens, chat.total_output_tokens],
        [333, 33],
        "the header counts the steps once, not the agent span's sum",
      );
    }
    if (v.variant === 'semconv') {
      const conversation = await conversationChat(rig, project, conversationId);
      assert.deepEqual(
        conversation.turns.map((t: any) => [t.trace_id, t.messages[0].user_message.text]),
        traces.map((t, i) => [t, QUESTIONS[i]![0]]),
      );
    }
  });
}
