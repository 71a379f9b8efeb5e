// Strands Agents TS (@strands-agents/sdk) run for real: an Agent with one tool on the OpenAI
// model (Responses and Chat Completions APIs) against the local model stand-in, two turns of one
// conversation, its spans exported by the OTLP/JSON exporter Strands' own setupTracer uses
// (exporter-trace-otlp-http, batched) to a real Weft, then read back through the agent API.
// Three of Strands' content layouts: messages in per-message span events (its default), in one
// gen_ai.client.inference.operation.details event (gen_ai_latest_experimental), and as span
// attributes (…,gen_ai_span_attributes_only). Strands' agent span repeats the token sum of its
// model calls (cumulated over the Agent's life): counted once. The conversation is named the way
// Strands users name it, by `session.id` in traceAttributes (it lands on the agent span only).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '@strands-agents/sdk';
import {
  agentsOf,
  agentVersionsOf,
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
import { QUESTIONS, standinModel, weatherTool, withStrandsTracing } from './helpers/strands.js';

let rig: FrameworkRig;
before(async () => {
  rig = await startFrameworkRig();
});
after(() => rig.close());

/** Two turns with one Agent (it keeps the history), exported to `project`. */
function converse(project: string, optIn: string, api: 'responses' | 'chat') {
  return withStrandsTracing(rig, project, optIn, async () => {
    const agent = new Agent({
      model: standinModel(rig, api),
      tools: [weatherTool()],
      name: 'weather_agent',
      id: 'weather-agent-1',
      systemPrompt: 'You report the weather.',
      // Strands has no conversation id: users name the session in traceAttributes.
      traceAttributes: { 'session.id': `conv-${project}` },
      printer: false,
    });
    const replies: string[] = [];
    for (const [q] of QUESTIONS) replies.push(String(await agent.invoke(q)));
    return replies;
  });
}

const VARIANTS = [
  { name: 'span events (default)', project: 'strands/events', optIn: '', api: 'responses' },
  { name: 'details event', project: 'strands/details', optIn: 'gen_ai_latest_experimental', api: 'chat' },
  {
    name: 'span attributes',
    project: 'strands/attributes',
    optIn: 'gen_ai_latest_experimental,gen_ai_span_attributes_only',
    api: 'chat',
  },
] as const;

for (const v of VARIANTS) {
  test(`Strands, messages as ${v.name}: agent, spans, tokens once, tools and chat`, async () => {
    const before = rig.model.calls.length;
    const replies = await converse(v.project, v.optIn, v.api);
    assert.deepEqual(replies, [finalAnswer('Paris'), finalAnswer('Berlin')]);
    const calls = rig.model.calls.slice(before);
    assert.deepEqual(
      calls.map((c) => c.round),
      ['tool', 'final', 'tool', 'final'],
    );
    assert.ok(calls.every((c) => c.path === (v.api === 'responses' ? '/v1/responses' : '/v1/chat/completions')));

    const spans = await spansOf(rig, v.project);
    // Per turn: invoke_agent, two loop cycles (no operation), two chats, one tool.
    assert.deepEqual(countByOperation(spans), { invoke_agent: 2, none: 4, chat: 4, execute_tool: 2 });
    const traces = traceIdsOf(spans);
    assert.equal(traces.length, 2, 'a trace per turn');
    const agentSpans = spans.filter((s) => s.operation_name === 'invoke_agent');
    for (const s of agentSpans) {
      assert.equal(s.agent_name, 'weather_agent');
      assert.equal(s.agent_id, 'weather-agent-1');
      assert.equal(s.conversation_id, `conv-${v.project}`);
      assert.equal(s.tokens_counted, 0, 'the agent span repeats its model calls: not counted');
    }
    // The agent span's own figure is the Agent's running total: turn 2 repeats turn 1's calls.
    const perTurn = USAGE.tool.input + USAGE.final.input;
    assert.deepEqual(
      agentSpans.map((s) => s.input_tokens),
      [perTurn, 2 * perTurn],
    );
    for (const s of spans) {
      assert.equal(s.owner_agent_name, 'weather_agent');
      // Only the agent span carries session.id; the spans under it take their turn's.
      assert.deepEqual(
        [s.conversation_id, s.conversation_inherited],
        [`conv-${v.project}`, s.operation_name === 'invoke_agent' ? 0 : 1],
      );
    }
    const chats = spans.filter((s) => s.operation_name === 'chat');
    assert.deepEqual(
      chats.map((s) => [s.input_tokens, s.output_tokens]),
      [
        [USAGE.tool.input, USAGE.tool.output],
        [USAGE.final.input, USAGE.final.output],
        [USAGE.tool.input, USAGE.tool.output],
        [USAGE.final.input, USAGE.final.output],
      ],
    );
    for (const s of chats) {
      assert.equal(s.request_model, MODEL);
      assert.deepEqual(s.system_instructions, ['You report the weather.']);
    }
    // The model call that asked for the tool, as a tool_call part carrying the call's id.
    const asked = chats[0]!.output_messages[0];
    assert.equal(asked.role, 'assistant');
    const [part] = JSON.parse(asked.content);
    assert.deepEqual(
      { ...part, id: undefined },
      {
        type: 'tool_call',
        id: undefined,
        name: 'get_weather',
        arguments: { city: 'Paris' },
      },
    );
    assert.equal(spans.find((s) => s.operation_name === 'execute_tool')!.tool_call_id, part.id);

    const [agent] = await agentsOf(rig, v.project);
    assert.deepEqual(
      {
        name: agent!.agent_name,
        invocations: agent!.invocation_count,
        spans: agent!.span_count,
        input: agent!.total_input_tokens,
        output: agent!.total_output_tokens,
        errors: agent!.error_count,
      },
      { name: 'weather_agent', invocations: 2, spans: 12, input: 2 * perTurn, output: 66, errors: 0 },
    );
    const versions = await agentVersionsOf(rig, v.project, 'weather_agent');
    assert.deepEqual(
      versions.map((x) => [x.agent_version, x.invocation_count]),
      [['', 2]],
      'Strands sends no agent version',
    );

    for (const [i, traceId] of traces.entries()) {
      const [question, city] = QUESTIONS[i]!;
      const chat = await traceChat(rig, v.project, traceId);
      assert.equal(chat.agent_name, 'weather_agent');
      assert.equal(chat.root_span_name, 'invoke_agent weather_agent');
      assert.deepEqual(chatOutline(chat), [
        ['user_message', null, question],
        ['agent_start', 'weather_agent', null],
        ['tool_call', 'weather_agent', 'get_weather'],
        ['assistant_message', 'weather_agent', finalAnswer(city)],
      ]);
      // Strands sends a tool's result as its content blocks.
      assert.deepEqual(toolCallsOf(chat), [
        { name: 'get_weather', arguments: { city }, result: [{ json: forecast(city) }] },
      ]);
      const answer = chat.messages.find((m: any) => m.type === 'assistant_message').assistant_message;
      assert.deepEqual([answer.model, answer.input_tokens, answer.output_tokens], [MODEL, 222, 22]);
      assert.deepEqual(
        [chat.total_input_tokens, chat.total_output_tokens],
        [333, 33],
        "the header counts the model calls once, not the agent span's running total",
      );
    }
    const conversation = await conversationChat(rig, v.project, `conv-${v.project}`);
    assert.equal(conversation.total_turns, 2);
    assert.deepEqual(
      conversation.turns.map((t: any) => [t.trace_id, t.messages[0].user_message.text]),
      traces.map((t, i) => [t, QUESTIONS[i]![0]]),
    );
  });
}
