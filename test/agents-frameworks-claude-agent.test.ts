// The Claude Agent SDK (@anthropic-ai/claude-agent-sdk) run for real: the SDK spawns its CLI, a
// native binary shipped inside its npm package, against the model stand-in's Anthropic Messages
// API; one in-process MCP tool; two turns of one session, the second resumed. Traced by
// OpenInference's instrumentation (an AGENT span per query, a TOOL span per call, no model
// spans) and by the CLI's own OpenTelemetry, which Weft reads as the agent `claude-code` (its
// traces are separate: nothing links them to the SDK's but the session).
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
import { CLAUDE_MODEL, QUESTIONS, runClaudeAgent, type ClaudeRun } from './helpers/claude-agent.js';
import { finalAnswer, forecast, USAGE, type StandinCall } from './helpers/model-standin.js';

const PROJECT = 'claude/weather';
let rig: FrameworkRig;
let run: ClaudeRun;
let calls: StandinCall[];
/** Every span of the run, once the CLI's have arrived too (it exports as it exits, after the SDK returns). */
let spans: any[];
before(async () => {
  rig = await startFrameworkRig();
  // One run for both tests: OpenInference's instrumentation patches the SDK module once per process.
  run = await runClaudeAgent(rig, PROJECT, { cliTelemetry: true });
  calls = [...rig.model.calls];
  // OpenInference's 4 spans, and per turn the CLI's interaction, 2 model calls, the tool and its 2 steps.
  spans = await spansWhen(PROJECT, 4 + 2 * 6);
});
after(() => rig.close());

const TOOL = 'mcp__weather__get_weather';
const perTurn = { input: USAGE.tool.input + USAGE.final.input, output: USAGE.tool.output + USAGE.final.output };
const result = (city: string) => [{ type: 'text', text: JSON.stringify(forecast(city)) }];

async function spansWhen(project: string, count: number): Promise<any[]> {
  const until = Date.now() + 60_000;
  for (;;) {
    const spans = await spansOf(rig, project);
    if (spans.length >= count || Date.now() > until) return spans;
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('Claude Agent SDK with OpenInference: a resumed session as one conversation, its tool, its tokens', async () => {
  assert.deepEqual(run.replies, [finalAnswer('Paris'), finalAnswer('Berlin')]);
  const [session] = run.sessionIds;
  assert.equal(run.sessionIds[1], session, 'the second turn resumed the session');
  assert.deepEqual(
    calls.map((c) => [c.path, c.round, c.body.model]),
    ['tool', 'final', 'tool', 'final'].map((round) => ['/v1/messages', round, CLAUDE_MODEL]),
  );

  const oi = spans.filter((s) => !s.span_name.startsWith('claude_code.'));
  assert.deepEqual(countByOperation(oi), { invoke_agent: 2, execute_tool: 2 });
  assert.equal(traceIdsOf(oi).length, 2);
  for (const s of oi) assert.deepEqual([s.conversation_id, s.owner_agent_name], [session, 'ClaudeAgent.query']);
  const queries = oi.filter((s) => s.operation_name === 'invoke_agent');
  assert.deepEqual(
    queries.map((s) => [s.request_model, s.input_tokens, s.output_tokens, s.tokens_counted]),
    [
      [CLAUDE_MODEL, perTurn.input, perTurn.output, 1],
      [CLAUDE_MODEL, perTurn.input, perTurn.output, 1],
    ],
    'no model spans under it: the query counts its own tokens',
  );
  const tools = oi.filter((s) => s.operation_name === 'execute_tool');
  assert.deepEqual(
    tools.map((s) => [s.tool_name, JSON.parse(s.tool_call_arguments), JSON.parse(s.tool_call_result)]),
    QUESTIONS.map(([, city]) => [TOOL, { city }, result(city)]),
  );

  const conversation = await conversationChat(rig, PROJECT, session!);
  const turns = conversation.turns.filter((t: any) => t.agent_name === 'ClaudeAgent.query');
  assert.equal(turns.length, 2);
  for (const [i, turn] of turns.entries()) {
    const [question, city] = QUESTIONS[i]!;
    assert.deepEqual(chatOutline(turn), [
      ['user_message', null, question],
      ['agent_start', 'ClaudeAgent.query', null],
      ['tool_call', 'ClaudeAgent.query', TOOL],
      ['assistant_message', 'ClaudeAgent.query', finalAnswer(city)],
    ]);
    assert.deepEqual(toolCallsOf(turn), [{ name: TOOL, arguments: { city }, result: result(city) }]);
    assert.deepEqual([turn.total_input_tokens, turn.total_output_tokens], [perTurn.input, perTurn.output]);
  }
});

test("the Claude Code CLI's own telemetry: the agent claude-code, its model calls and tools in the session", async () => {
  const [session] = run.sessionIds;
  const cli = spans.filter((s) => s.span_name.startsWith('claude_code.'));
  assert.deepEqual(countByOperation(cli), { invoke_agent: 2, chat: 4, execute_tool: 2, none: 4 });
  for (const s of cli) assert.deepEqual([s.conversation_id, s.owner_agent_name], [session, 'claude-code']);
  assert.deepEqual(
    cli.filter((s) => s.operation_name === 'chat').map((s) => [s.request_model, s.input_tokens, s.output_tokens]),
    [
      [CLAUDE_MODEL, USAGE.tool.input, USAGE.tool.output],
      [CLAUDE_MODEL, USAGE.final.input, USAGE.final.output],
      [CLAUDE_MODEL, USAGE.tool.input, USAGE.tool.output],
      [CLAUDE_MODEL, USAGE.final.input, USAGE.final.output],
    ],
  );
  assert.deepEqual(
    cli
      .filter((s) => s.operation_name === 'execute_tool')
      .map((s) => [s.tool_name, s.tool_call_id.startsWith('toolu_'), JSON.parse(s.tool_call_result)]),
    QUESTIONS.map(([, city]) => ['get_weather', true, forecast(city)]),
  );
  assert.deepEqual(
    (await agentsOf(rig, PROJECT)).map((a) => [a.agent_name, a.invocation_count, a.total_input_tokens]),
    [
      ['ClaudeAgent.query', 2, 2 * perTurn.input],
      ['claude-code', 2, 2 * perTurn.input],
    ],
    'two instrumentations of the same work: each counts it',
  );
  assert.deepEqual(
    await conversationsOf(rig, PROJECT),
    [[session, 4, 4 * perTurn.input, 4 * perTurn.output, QUESTIONS[0][0], finalAnswer('Berlin')]],
    "the conversations list: the session, the SDK's two turns and the CLI's two",
  );
  const conversation = await conversationChat(rig, PROJECT, session!);
  assert.equal(conversation.total_turns, 4, "the SDK's two traces and the CLI's two");
  const cliTurns = conversation.turns.filter((t: any) => t.agent_name === 'claude-code');
  assert.deepEqual(
    cliTurns.map((t: any) => chatOutline(t)),
    QUESTIONS.map(([q]) => [
      ['user_message', null, q],
      ['agent_start', 'claude-code', null],
      ['tool_call', 'claude-code', 'get_weather'],
    ]),
    'the prompt and the tool; the answers are in log records only',
  );
});
