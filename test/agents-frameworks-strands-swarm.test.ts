// A Strands Swarm run for real (@strands-agents/sdk): a triage agent hands each question to a
// weather agent through the Swarm's structured output, against the local model stand-in, two
// turns of one session named only by `session.id` in the Swarm's traceAttributes (Strands has
// no conversation id of its own; the attribute reaches the swarm and node spans, not the
// agents' own). Asserted through Weft's agent API: the swarm listed as an orchestrator with its
// members, every span of a turn in the session's conversation, tokens counted once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  agentsOf,
  chatOutline,
  conversationChat,
  countByOperation,
  spansOf,
  startFrameworkRig,
  toolCallsOf,
  traceIdsOf,
  type FrameworkRig,
} from './helpers/agent-frameworks.js';
import { finalAnswer, USAGE } from './helpers/model-standin.js';
import { QUESTIONS, runStrandsSwarm } from './helpers/strands.js';

let rig: FrameworkRig;
before(async () => {
  rig = await startFrameworkRig();
});
after(() => rig.close());

const PROJECT = 'strands/swarm';
const SESSION = 'sess-strands-swarm-1';
test('Strands Swarm: the swarm is an orchestrator with its members; session.id names the conversation', async () => {
  const before = rig.model.calls.length;
  const replies = await runStrandsSwarm(rig, PROJECT, SESSION);
  assert.deepEqual(
    replies.map((r) => JSON.parse(r).content),
    QUESTIONS.map(([, city]) => [{ text: finalAnswer(city) }]),
  );
  assert.deepEqual(
    rig.model.calls.slice(before).map((c) => c.round),
    ['handoff', 'tool', 'final', 'handoff', 'tool', 'final'],
  );

  const spans = await spansOf(rig, PROJECT);
  assert.deepEqual(countByOperation(spans), {
    invoke_swarm: 2,
    execute_node: 4,
    invoke_agent: 4,
    none: 6,
    chat: 6,
    execute_tool: 6,
  });
  assert.equal(traceIdsOf(spans).length, 2, 'a trace per turn');
  for (const s of spans) {
    assert.equal(s.conversation_id, SESSION, `${s.span_name} is in the session's conversation`);
    // Only the swarm and node spans carry session.id; the agents' spans take their turn's.
    const own = s.operation_name === 'invoke_swarm' || s.operation_name === 'execute_node';
    assert.equal(s.conversation_inherited, own ? 0 : 1, s.span_name);
    const owner = own ? 'weather_swarm' : s.span_name.includes('triage') ? 'triage_agent' : undefined;
    if (owner !== undefined) assert.equal(s.owner_agent_name, owner, s.span_name);
    // The swarm, node and agent spans repeat the sums of the model calls under them.
    assert.equal(s.tokens_counted, ['invoke_swarm', 'execute_node', 'invoke_agent'].includes(s.operation_name) ? 0 : 1);
  }
  const swarmSpan = spans.find((s) => s.operation_name === 'invoke_swarm')!;
  assert.deepEqual([swarmSpan.agent_name, swarmSpan.agent_id], ['swarm', 'weather_swarm']);

  // Every model call counted once, for the agent that made it: 2 triage rounds, 4 weather rounds.
  const triage = { invocations: 2, input: 2 * USAGE.handoff.input, output: 2 * USAGE.handoff.output };
  const weather = {
    invocations: 2,
    input: 2 * (USAGE.tool.input + USAGE.final.input),
    output: 2 * (USAGE.tool.output + USAGE.final.output),
  };
  const figures = (a: any) => ({
    invocations: a.invocation_count,
    input: a.total_input_tokens,
    output: a.total_output_tokens,
  });
  const agents = await agentsOf(rig, PROJECT);
  assert.deepEqual(
    agents.map((a) => [a.agent_name, a.kind]),
    [
      ['triage_agent', 'agent'],
      ['weather_agent', 'agent'],
      ['weather_swarm', 'orchestrator'],
    ],
  );
  const [triageRow, weatherRow, swarmRow] = agents as [any, any, any];
  assert.deepEqual(figures(triageRow), triage);
  assert.deepEqual(figures(weatherRow), weather);
  assert.equal(triageRow.members, undefined);
  // The swarm's own spans: its two runs and their nodes, no tokens of their own.
  assert.deepEqual(
    { ...figures(swarmRow), spans: swarmRow.span_count, errors: swarmRow.error_count },
    {
      invocations: 2,
      input: 0,
      output: 0,
      spans: 6,
      errors: 0,
    },
  );
  assert.ok(swarmRow.total_duration_ms >= weatherRow.total_duration_ms + triageRow.total_duration_ms - 2);
  assert.deepEqual(
    swarmRow.members.map((m: any) => [m.agent_name, figures(m)]),
    [
      ['triage_agent', triage],
      ['weather_agent', weather],
    ],
    'members in the order they first ran, with their figures inside the swarm',
  );

  // The conversation: both turns, each a hand-off from triage to the weather agent.
  const chat = await conversationChat(rig, PROJECT, SESSION);
  assert.equal(chat.total_turns, 2);
  for (const [i, turn] of chat.turns.entries()) {
    const [question, city] = QUESTIONS[i]!;
    assert.deepEqual(chatOutline(turn), [
      ['user_message', null, question],
      ['agent_start', 'triage_agent', null],
      ['tool_call', 'triage_agent', 'strands_structured_output'],
      ['agent_start', 'weather_agent', null],
      ['tool_call', 'weather_agent', 'get_weather'],
      ['tool_call', 'weather_agent', 'strands_structured_output'],
      // The answer the Swarm returns, given only as the structured output's message.
      ['assistant_message', 'weather_agent', finalAnswer(city)],
    ]);
    assert.equal(turn.agent_name, 'weather_swarm', 'a run is named by the orchestrator Weft lists');
    const handoff = toolCallsOf(turn)[0]!;
    assert.deepEqual(handoff.arguments, { agentId: 'weather_agent', message: question });
    assert.deepEqual(toolCallsOf(turn)[2]!.arguments, { message: finalAnswer(city) });
    assert.deepEqual(
      [turn.total_input_tokens, turn.total_output_tokens],
      [triage.input / 2 + weather.input / 2, triage.output / 2 + weather.output / 2],
    );
  }

  // The conversations list: one conversation of two turns, its tokens counted once.
  const listed = await rig.weft.t.post('/agents/spans/query', {
    project_id: PROJECT,
    group_by: [{ source: 'column', key: 'conversation_id', alias: 'conversation_id' }],
    sort_by: [{ field: 'last_seen', direction: 'desc' }],
  });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(
    listed.body.groups.map((g: any) => [
      g.group_keys.conversation_id,
      g.turn_count,
      g.total_input_tokens,
      g.total_output_tokens,
    ]),
    [[SESSION, 2, triage.input + weather.input, triage.output + weather.output]],
  );
});
