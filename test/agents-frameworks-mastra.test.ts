// Mastra (@mastra/core) run for real: an Agent with one tool and memory against the local model
// stand-in, two turns of one memory thread, exported by Mastra's own OTel exporter (protobuf) to
// a real Weft and read back through the agent API. Mastra sends the memory thread as
// gen_ai.conversation.id on every span, and the run's question and answer only in its own
// `mastra.agent_run.*` keys; its model calls carry tokens but no input messages (their steps do).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  agentsOf,
  chatOutline,
  conversationChat,
  conversationsOf,
  countByOperation,
  spansOf,
  startFrameworkRig,
  toolCallsOf,
  traceIdsOf,
  type FrameworkRig,
} from './helpers/agent-frameworks.js';
import { QUESTIONS, runMastra } from './helpers/mastra.js';
import { finalAnswer, forecast, MODEL, TOOL_TURN, USAGE } from './helpers/model-standin.js';

let rig: FrameworkRig;
before(async () => {
  rig = await startFrameworkRig();
});
after(() => rig.close());

const PROJECT = 'mastra/weather';
const THREAD = 'thread-mastra-1';

test('Mastra: the agent, its memory thread as the conversation, tools, tokens once', async () => {
  const before = rig.model.calls.length;
  assert.deepEqual(await runMastra(rig, PROJECT, THREAD), [finalAnswer('Paris'), finalAnswer('Berlin')]);
  assert.deepEqual(
    rig.model.calls.slice(before).map((c) => [c.path, c.round]),
    [
      ['/v1/chat/completions', 'tool'],
      ['/v1/chat/completions', 'final'],
      ['/v1/chat/completions', 'tool'],
      ['/v1/chat/completions', 'final'],
    ],
  );

  const spans = await spansOf(rig, PROJECT);
  assert.deepEqual(countByOperation(spans), {
    invoke_agent: 2,
    processor_run: 2,
    memory_operation: 4,
    model_generation: 2,
    agent_step: 4,
    chat: 4,
    model_chunk: 6,
    execute_tool: 2,
  });
  assert.equal(traceIdsOf(spans).length, 2, 'a trace per turn');
  for (const s of spans) {
    assert.deepEqual([s.conversation_id, s.conversation_inherited], [THREAD, 0], s.span_name);
    assert.equal(s.owner_agent_name, 'weather_agent');
  }
  const runs = spans.filter((s) => s.operation_name === 'invoke_agent');
  assert.deepEqual(
    runs.map((s) => [
      s.agent_name,
      s.agent_id,
      s.input_messages.map((m: any) => [m.role, m.content]),
      s.output_messages.map((m: any) => [m.role, m.content]),
      s.system_instructions,
    ]),
    QUESTIONS.map(([q, city]) => [
      'weather_agent',
      'weather-agent',
      [['user', q]],
      [['assistant', finalAnswer(city)]],
      ['You report the weather.'],
    ]),
  );
  const chats = spans.filter((s) => s.operation_name === 'chat');
  assert.deepEqual(
    chats.map((s) => [s.request_model, s.input_tokens, s.output_tokens, s.finish_reasons]),
    [
      [MODEL, USAGE.tool.input, USAGE.tool.output, ['tool-calls']],
      [MODEL, USAGE.final.input, USAGE.final.output, ['stop']],
      [MODEL, USAGE.tool.input, USAGE.tool.output, ['tool-calls']],
      [MODEL, USAGE.final.input, USAGE.final.output, ['stop']],
    ],
    'finish reasons sent as JSON text read as the list they are',
  );
  const tools = spans.filter((s) => s.operation_name === 'execute_tool');
  assert.deepEqual(
    tools.map((s) => [s.tool_name, JSON.parse(s.tool_call_arguments), JSON.parse(s.tool_call_result)]),
    QUESTIONS.map(([, city]) => ['get_weather', { city }, forecast(city)]),
  );
  // A model step holds its model call's input (tool turns as Mastra summarizes them) and the
  // tool call it asked for (its chat span sends an empty text there); its answer stays on the chat.
  const steps = spans.filter((s) => s.operation_name === 'agent_step');
  const asked = (i: number) => [
    { type: 'tool_call', id: tools[i]!.tool_call_id, name: 'get_weather', arguments: { city: QUESTIONS[i]![1] } },
  ];
  assert.deepEqual(
    steps.map((s) => s.output_messages.map((m: any) => JSON.parse(m.content))),
    [[asked(0)], [], [asked(1)], []],
  );
  const [question] = QUESTIONS[0];
  assert.deepEqual(
    steps.slice(0, 2).map((s) => [s.system_instructions, s.input_messages.map((m: any) => [m.role, m.content])]),
    [
      [['You report the weather.'], [['user', question]]],
      [
        ['You report the weather.'],
        [
          ['user', question],
          ['assistant', '[tool: get_weather]'],
          ['tool', '[tool-result: get_weather]'],
        ],
      ],
    ],
  );

  const agents = await agentsOf(rig, PROJECT);
  assert.deepEqual(
    agents.map((a) => [a.agent_name, a.kind, a.invocation_count, a.total_input_tokens, a.total_output_tokens]),
    [
      [
        'weather_agent',
        'agent',
        2,
        2 * (USAGE.tool.input + USAGE.final.input),
        2 * (USAGE.tool.output + USAGE.final.output),
      ],
    ],
  );

  const listed = [THREAD, 2, 2 * TOOL_TURN.input, 2 * TOOL_TURN.output, QUESTIONS[0][0], finalAnswer('Berlin')];
  assert.deepEqual(await conversationsOf(rig, PROJECT), [listed], 'the conversations list');
  const conversation = await conversationChat(rig, PROJECT, THREAD);
  assert.equal(conversation.total_turns, 2);
  for (const [i, turn] of conversation.turns.entries()) {
    const [question, city] = QUESTIONS[i]!;
    assert.deepEqual(chatOutline(turn), [
      ['user_message', null, question],
      ['agent_start', 'weather_agent', null],
      ['tool_call', 'weather_agent', 'get_weather'],
      ['assistant_message', 'weather_agent', finalAnswer(city)],
    ]);
    assert.deepEqual(toolCallsOf(turn), [{ name: 'get_weather', arguments: { city }, result: forecast(city) }]);
    assert.deepEqual(
      [turn.total_input_tokens, turn.total_output_tokens],
      [USAGE.tool.input + USAGE.final.input, USAGE.tool.output + USAGE.final.output],
    );
  }
});
