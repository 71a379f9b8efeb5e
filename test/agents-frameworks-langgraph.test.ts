// LangGraph JS (@langchain/langgraph) run for real with OpenInference's LangChain
// instrumentation: a prebuilt ReAct agent with one tool on ChatOpenAI against the local model
// stand-in, two turns of one thread, exported (protobuf) to a real Weft and read back through
// the agent API. OpenInference names no agent and no GenAI operation: the graph's root CHAIN
// is read as the app's agent, its `session.id` (LangGraph's thread_id) as the conversation on
// every span, its state and LangChain's serialized tool messages as messages and results.
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
import { QUESTIONS, runLangGraph } from './helpers/langgraph.js';
import { finalAnswer, forecast, MODEL, TOOL_TURN, USAGE } from './helpers/model-standin.js';

let rig: FrameworkRig;
before(async () => {
  rig = await startFrameworkRig();
});
after(() => rig.close());

const PROJECT = 'langgraph/weather';
const THREAD = 'thread-lg-1';

test('LangGraph with OpenInference: the graph as the agent, its thread as the conversation, tools and tokens', async () => {
  const before = rig.model.calls.length;
  const replies = await runLangGraph(rig, PROJECT, THREAD);
  assert.deepEqual(replies, [finalAnswer('Paris'), finalAnswer('Berlin')]);
  const calls = rig.model.calls.slice(before);
  assert.deepEqual(
    calls.map((c) => [c.path, c.round]),
    [
      ['/v1/chat/completions', 'tool'],
      ['/v1/chat/completions', 'final'],
      ['/v1/chat/completions', 'tool'],
      ['/v1/chat/completions', 'final'],
    ],
  );

  const spans = await spansOf(rig, PROJECT);
  // Per turn: the graph (root CHAIN), two model calls, one tool, and ten inner CHAIN spans.
  assert.deepEqual(countByOperation(spans), { invoke_agent: 2, none: 20, chat: 4, execute_tool: 2 });
  assert.equal(traceIdsOf(spans).length, 2, 'a trace per turn');
  for (const s of spans) {
    assert.deepEqual([s.conversation_id, s.conversation_inherited], [THREAD, 0], `${s.span_name} names the thread`);
    assert.equal(s.owner_agent_name, 'weather_agent');
  }
  const roots = spans.filter((s) => s.operation_name === 'invoke_agent');
  assert.deepEqual(
    roots.map((s) => [s.agent_name, s.input_messages.map((m: any) => m.content), s.output_messages[0].content]),
    QUESTIONS.map(([q, city]) => ['weather_agent', [q], finalAnswer(city)]),
    "the graph's state: this turn's question in, the last answer out",
  );
  const chats = spans.filter((s) => s.operation_name === 'chat');
  assert.deepEqual(
    chats.map((s) => [s.request_model, s.input_tokens, s.output_tokens, s.tokens_counted]),
    [
      [MODEL, USAGE.tool.input, USAGE.tool.output, 1],
      [MODEL, USAGE.final.input, USAGE.final.output, 1],
      [MODEL, USAGE.tool.input, USAGE.tool.output, 1],
      [MODEL, USAGE.final.input, USAGE.final.output, 1],
    ],
  );
  for (const s of chats) assert.deepEqual(s.system_instructions, ['You report the weather.']);
  // The model's request for the tool, as a tool_call part (OpenInference's LangChain spans carry no call id).
  assert.deepEqual(JSON.parse(chats[0]!.output_messages[0].content), [
    { type: 'tool_call', id: null, name: 'get_weather', arguments: '{"city":"Paris"}' },
  ]);
  const tools = spans.filter((s) => s.operation_name === 'execute_tool');
  assert.deepEqual(
    tools.map((s) => [s.tool_name, s.tool_call_arguments, JSON.parse(s.tool_call_result)]),
    QUESTIONS.map(([, city]) => ['get_weather', city, forecast(city)]),
    "LangChain records the tool's input as it passed it, and its result as a ToolMessage",
  );
  for (const s of tools) assert.match(s.tool_call_id, /^call_\d+$/, "the id of the model's call it answers");

  const [agent, ...others] = await agentsOf(rig, PROJECT);
  assert.deepEqual(others, []);
  assert.deepEqual(
    [agent!.agent_name, agent!.kind, agent!.invocation_count, agent!.total_input_tokens, agent!.total_output_tokens],
    [
      'weather_agent',
      'agent',
      2,
      2 * (USAGE.tool.input + USAGE.final.input),
      2 * (USAGE.tool.output + USAGE.final.output),
    ],
  );

  const listed = [THREAD, 2, 2 * TOOL_TURN.input, 2 * TOOL_TURN.output, QUESTIONS[0][0], finalAnswer('Berlin')];
  assert.deepEqual(await conversationsOf(rig, PROJECT), [listed], 'the conversations list');
  const conversation = await conversationChat(rig, PROJECT, THREAD);
  assert.equal(conversation.total_turns, 2);
  for (const [i, turn] of conversation.turns.entries()) {
    const [question, city] = QUESTIONS[i]!;
    assert.equal(turn.agent_name, 'weather_agent');
    assert.deepEqual(chatOutline(turn), [
      ['user_message', null, question],
      ['agent_start', 'weather_agent', null],
      ['tool_call', 'weather_agent', 'get_weather'],
      ['assistant_message', 'weather_agent', finalAnswer(city)],
    ]);
    assert.deepEqual(toolCallsOf(turn), [{ name: 'get_weather', arguments: city, result: forecast(city) }]);
    assert.deepEqual(
      [turn.total_input_tokens, turn.total_output_tokens],
      [USAGE.tool.input + USAGE.final.input, USAGE.tool.output + USAGE.final.output],
    );
  }
});
