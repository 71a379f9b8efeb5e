// OpenAI Agents JS (@openai/agents) run for real: a triage agent that hands off to a weather
// agent with one tool, on the Responses and the Chat Completions APIs of the local model
// stand-in (OPENAI_BASE_URL), two turns each. The SDK has no OpenTelemetry of its own: its
// traces reach OTel through OpenInference's processor
// (@arizeai/openinference-instrumentation-openai-agents), exported by the OTLP protobuf
// exporter to a real Weft. OpenInference sends no gen_ai.* keys at all: the agent API's view
// comes from openinference.span.kind, graph.node.id, llm.* and input/output.value. No
// conversation id reaches the spans (the Runner's groupId is not exported).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { z } from 'zod';
import * as agents from '@openai/agents';
import { OpenAIAgentsInstrumentation } from '@arizeai/openinference-instrumentation-openai-agents';
import {
  agentsOf,
  chatOutline,
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

let rig: FrameworkRig;
let provider: NodeTracerProvider;
/** The exporter of the project being run: the instrumentation registers its processor once per process. */
let current: OTLPTraceExporter | null = null;
const switching: SpanExporter = {
  export: (spans: ReadableSpan[], done) => current!.export(spans, done),
  shutdown: async () => {},
  forceFlush: async () => {},
};

before(async () => {
  rig = await startFrameworkRig();
  process.env.OPENAI_BASE_URL = `${rig.model.url}/v1`;
  process.env.OPENAI_API_KEY = 'sk-standin';
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'openai-agents-weather' }),
    spanProcessors: [new BatchSpanProcessor(switching)],
  });
  new OpenAIAgentsInstrumentation({ tracerProvider: provider }).manuallyInstrument(agents);
});
after(async () => {
  await provider.shutdown();
  await rig.close();
});

async function converse(project: string, api: 'responses' | 'chat_completions') {
  current = new OTLPTraceExporter({ url: rig.tracesUrl, headers: rig.headers(project) });
  agents.setOpenAIAPI(api);
  const getWeather = agents.tool({
    name: 'get_weather',
    description: 'The weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => forecast(city),
  });
  const weather = new agents.Agent({
    name: 'weather_agent',
    instructions: 'You report the weather.',
    model: MODEL,
    tools: [getWeather],
  });
  const triage = new agents.Agent({
    name: 'triage_agent',
    instructions: 'Hand weather questions to the weather agent.',
    model: MODEL,
    handoffs: [weather],
  });
  const runner = new agents.Runner({ workflowName: 'weather workflow', groupId: `conv-${api}` });
  let history: agents.AgentInputItem[] = [];
  const replies: string[] = [];
  for (const [q] of QUESTIONS) {
    history.push({ role: 'user', content: q });
    const r = await runner.run(triage, history);
    replies.push(String(r.finalOutput));
    history = r.history;
  }
  await agents.getGlobalTraceProvider().forceFlush();
  await provider.forceFlush();
  await current.shutdown();
  return replies;
}

for (const api of ['responses', 'chat_completions'] as const) {
  test(`OpenAI Agents (${api}) through OpenInference: agents, handoff, tools, tokens and chat`, async () => {
    const project = `openai-agents/${api}`;
    const before = rig.model.calls.length;
    assert.deepEqual(await converse(project, api), [finalAnswer('Paris'), finalAnswer('Berlin')]);
    const calls = rig.model.calls.slice(before);
    assert.deepEqual(
      calls.map((c) => c.round),
      ['handoff', 'tool', 'final', 'handoff', 'tool', 'final'],
    );
    assert.ok(calls.every((c) => c.path === (api === 'responses' ? '/v1/responses' : '/v1/chat/completions')));

    const spans = await spansOf(rig, project);
    // Per turn: AGENT workflow, triage and weather agents; three LLM calls; the handoff and the
    // tool; a CHAIN under the workflow and one `turn` CHAIN per model call (no operation).
    assert.deepEqual(countByOperation(spans), { invoke_agent: 6, none: 8, chat: 6, execute_tool: 4 });
    const traces = traceIdsOf(spans);
    assert.equal(traces.length, 2, 'a trace per turn');
    assert.ok(spans.every((s) => s.conversation_id === null && s.provider_name === 'openai'));
    const models = spans.filter((s) => s.operation_name === 'chat');
    assert.deepEqual(
      models.map((s) => [s.owner_agent_name, s.request_model, s.input_tokens, s.output_tokens]),
      QUESTIONS.flatMap(() => [
        ['triage_agent', MODEL, USAGE.handoff.input, USAGE.handoff.output],
        ['weather_agent', MODEL, USAGE.tool.input, USAGE.tool.output],
        ['weather_agent', MODEL, USAGE.final.input, USAGE.final.output],
      ]),
    );
    // The weather agent's first call sees the handoff in its history as a call and its result.
    const afterHandoff = models[1]!.input_messages.map((m: any) => m.role);
    assert.deepEqual(afterHandoff, ['user', 'assistant', 'tool']);
    assert.match(models[1]!.input_messages[1].content, /"name":"transfer_to_weather_agent"/);
    // Chat Completions carries the agent's instructions as a system message (Responses apart, unsent).
    assert.deepEqual(models[1]!.system_instructions, api === 'chat_completions' ? ['You report the weather.'] : []);

    const byName = Object.fromEntries((await agentsOf(rig, project)).map((a) => [a.agent_name, a]));
    const figures = (name: string) => {
      const a = byName[name]!;
      return [a.invocation_count, a.total_input_tokens, a.total_output_tokens, a.error_count];
    };
    assert.deepEqual(Object.keys(byName).sort(), ['triage_agent', 'weather workflow', 'weather_agent']);
    assert.deepEqual(figures('triage_agent'), [2, 2 * USAGE.handoff.input, 2 * USAGE.handoff.output, 0]);
    assert.deepEqual(figures('weather_agent'), [2, 666, 66, 0]);
    // The workflow's root AGENT span runs the agents and calls no model: an orchestrator, its
    // model calls with the agents under it, who are its members.
    assert.deepEqual(figures('weather workflow'), [2, 0, 0, 0]);
    assert.deepEqual(
      Object.values(byName).map((a: any) => [a.agent_name, a.kind]),
      [
        ['triage_agent', 'agent'],
        ['weather workflow', 'orchestrator'],
        ['weather_agent', 'agent'],
      ],
    );
    assert.deepEqual(
      byName['weather workflow']!.members.map((m: any) => [m.agent_name, m.invocation_count, m.total_input_tokens]),
      [
        ['triage_agent', 2, 2 * USAGE.handoff.input],
        ['weather_agent', 2, 666],
      ],
    );

    for (const [i, traceId] of traces.entries()) {
      const [question, city] = QUESTIONS[i]!;
      const chat = await traceChat(rig, project, traceId);
      assert.equal(chat.root_span_name, 'weather workflow');
      const perTurn = USAGE.handoff.input + USAGE.tool.input + USAGE.final.input;
      assert.deepEqual([chat.total_input_tokens, chat.total_output_tokens], [perTurn, 38]);
      assert.deepEqual(chatOutline(chat), [
        ['user_message', null, question],
        ['agent_start', 'weather workflow', null],
        ['agent_start', 'triage_agent', null],
        ['tool_call', 'triage_agent', 'handoff_to_weather_agent'],
        ['agent_start', 'weather_agent', null],
        ['tool_call', 'weather_agent', 'get_weather'],
        ['assistant_message', 'weather_agent', finalAnswer(city)],
      ]);
      assert.deepEqual(toolCallsOf(chat), [
        {
          name: 'handoff_to_weather_agent',
          arguments: { from_agent: 'triage_agent' },
          result: { to_agent: 'weather_agent' },
        },
        { name: 'get_weather', arguments: { city }, result: forecast(city) },
      ]);
    }
  });
}
