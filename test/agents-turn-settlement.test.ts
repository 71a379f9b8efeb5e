// What Weft settles per trace (storage/spans/span-settle.ts), through HTTP on every engine:
// a turn's conversation from its root or, failing that, its descendants, taken by the spans
// sent without one and settled again when the trace is written again; `session.id` as the
// conversation on any span, after gen_ai.conversation.id; multi-agent orchestrators (their own
// operations, or an agent span that only runs agents) as agents of kind `orchestrator` with
// their members, every token counted once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
const ENTITY = PROJECT.split('/')[0]!;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const newProject = () => `${ENTITY}/turn-settlement-${hexId(4)}`;
async function send(project: string, spans: TestSpan[]) {
  const resource = { 'wandb.entity': ENTITY, 'wandb.project': project.split('/')[1]! };
  const r = await t.postRaw('/agents/otel/v1/traces', otlpJson(resource, spans), 'application/json');
  assert.equal(r.status, 200, r.text);
}
async function read(path: string, body: Record<string, unknown>): Promise<any> {
  const r = await t.post(path, body);
  assert.equal(r.status, 200, r.text);
  return r.body;
}
async function spansBy(project: string): Promise<Map<string, any>> {
  const body = await read('/agents/spans/query', { project_id: project, limit: 1000 });
  return new Map(body.spans.map((s: any) => [s.span_name, s]));
}
const conversationOf = (s: any) => [s.conversation_id, s.conversation_inherited];

type Attrs = NonNullable<TestSpan['attributes']>;
/** Times are milliseconds after this (a span that starts at the epoch is refused). */
const BASE = Date.now() - 60_000;
function span(traceId: string, name: string, startMs: number, attributes: Attrs, parent?: TestSpan): TestSpan {
  return {
    traceId,
    spanId: hexId(8),
    ...(parent === undefined ? {} : { parentSpanId: parent.spanId }),
    name,
    startMs: BASE + startMs,
    endMs: BASE + startMs + 100,
    attributes,
  };
}
const invoke = (name: string, extra: Attrs = {}): Attrs => ({
  'gen_ai.operation.name': 'invoke_agent',
  'gen_ai.agent.name': name,
  ...extra,
});
const chat = (input: number, output: number, extra: Attrs = {}): Attrs => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.request.model': 'gpt-4o',
  'gen_ai.usage.input_tokens': input,
  'gen_ai.usage.output_tokens': output,
  ...extra,
});

test('a turn whose root names no conversation belongs to the one its descendants name', async () => {
  const project = newProject();
  const trace = hexId(16);
  const root = span(trace, 'invocation', 0, {});
  const agent = span(trace, 'agent', 1, invoke('a', { 'gen_ai.conversation.id': 'conv-1' }), root);
  const call = span(trace, 'call', 2, chat(10, 1), agent);
  await send(project, [root, agent, call]);
  const spans = await spansBy(project);
  assert.deepEqual(conversationOf(spans.get('invocation')), ['conv-1', 1]);
  assert.deepEqual(conversationOf(spans.get('agent')), ['conv-1', 0]);
  assert.deepEqual(conversationOf(spans.get('call')), ['conv-1', 1]);
  const groups = await read('/agents/spans/query', {
    project_id: project,
    group_by: [{ key: 'conversation_id' }],
  });
  assert.deepEqual(
    groups.groups.map((g: any) => [g.group_keys.conversation_id, g.span_count, g.total_input_tokens]),
    [['conv-1', 3, 10]],
    'no span of the turn is left outside its conversation',
  );
});

test("a child sent first takes the root's conversation when it arrives, and again when it changes", async () => {
  const project = newProject();
  const trace = hexId(16);
  const root = span(trace, 'root', 0, invoke('a', { 'gen_ai.conversation.id': 'first' }));
  const call = span(trace, 'call', 1, chat(5, 1), root);
  const own = span(trace, 'own', 2, chat(5, 1, { 'gen_ai.conversation.id': 'elsewhere' }), root);
  await send(project, [call, own]);
  let spans = await spansBy(project);
  // Before the root: the only name the trace carries is `own`'s.
  assert.deepEqual(conversationOf(spans.get('call')), ['elsewhere', 1]);
  await send(project, [root]);
  spans = await spansBy(project);
  assert.deepEqual(conversationOf(spans.get('call')), ['first', 1]);
  assert.deepEqual(conversationOf(spans.get('own')), ['elsewhere', 0], 'a span keeps the id it was sent with');
  await send(project, [{ ...root, attributes: invoke('a', { 'gen_ai.conversation.id': 'second' }) }]);
  spans = await spansBy(project);
  assert.deepEqual(conversationOf(spans.get('call')), ['second', 1]);
  const first = await read('/agents/conversations/chat', { project_id: project, conversation_id: 'first' });
  assert.equal(first.total_turns, 0, 'nothing is left in the conversation the root no longer names');
  const second = await read('/agents/conversations/chat', { project_id: project, conversation_id: 'second' });
  assert.equal(second.total_turns, 1);
});

test('session.id names the conversation on any span; gen_ai.conversation.id wins beside it', async () => {
  const project = newProject();
  const [a, b, c] = [hexId(16), hexId(16), hexId(16)];
  await send(project, [
    span(a, 'genai', 0, invoke('x', { 'session.id': 'sess-a' })),
    span(b, 'both', 0, invoke('x', { 'session.id': 'sess-b', 'gen_ai.conversation.id': 'conv-b' })),
    span(c, 'openinference', 0, { 'openinference.span.kind': 'AGENT', 'session.id': 'sess-c' }),
  ]);
  const spans = await spansBy(project);
  assert.deepEqual(conversationOf(spans.get('genai')), ['sess-a', 0]);
  assert.deepEqual(conversationOf(spans.get('both')), ['conv-b', 0]);
  assert.deepEqual(conversationOf(spans.get('openinference')), ['sess-c', 0]);
  assert.equal(spans.get('genai').custom_attrs_string['session.id'], 'sess-a', 'the attribute stays too');
});

test('orchestrators: a swarm and a workflow agent list their members; an agent with sub-agents stays an agent', async () => {
  const project = newProject();
  const swarmTrace = hexId(16);
  const swarm = span(swarmTrace, 'swarm', 0, {
    'gen_ai.operation.name': 'invoke_swarm',
    'gen_ai.agent.name': 'swarm',
    'gen_ai.agent.id': 'support_swarm',
    'gen_ai.usage.input_tokens': 30,
    'gen_ai.usage.output_tokens': 3,
  });
  const node = span(
    swarmTrace,
    'node',
    1,
    { 'gen_ai.operation.name': 'execute_node', 'gen_ai.usage.input_tokens': 30 },
    swarm,
  );
  const member = span(swarmTrace, 'member', 2, invoke('researcher', { 'gen_ai.usage.input_tokens': 30 }), node);
  const call = span(swarmTrace, 'member-call', 3, chat(30, 3), member);
  // OpenAI Agents' workflow: an agent span over agents, with no model call of its own.
  const workflowTrace = hexId(16);
  const workflow = span(workflowTrace, 'workflow', 10, invoke('support workflow'));
  const triage = span(workflowTrace, 'triage', 11, invoke('triage'), workflow);
  const triageCall = span(workflowTrace, 'triage-call', 12, chat(7, 1), triage);
  // An agent that calls a model and has a sub-agent is an agent.
  const parentTrace = hexId(16);
  const parent = span(parentTrace, 'parent', 20, invoke('planner'));
  const parentCall = span(parentTrace, 'parent-call', 21, chat(4, 1), parent);
  const sub = span(parentTrace, 'sub', 22, invoke('researcher'), parent);
  const subCall = span(parentTrace, 'sub-call', 23, chat(6, 2), sub);
  const all = [swarm, node, member, call, workflow, triage, triageCall, parent, parentCall, sub, subCall];
  await send(project, all);
  await send(project, all); // sent again: nothing counts twice

  const { agents } = await read('/agents/query', {
    project_id: project,
    sort_by: [{ field: 'agent_name', direction: 'asc' }],
  });
  const summary = (a: any) => [a.agent_name, a.kind, a.invocation_count, a.span_count, a.total_input_tokens];
  assert.deepEqual(agents.map(summary), [
    ['planner', 'agent', 1, 2, 4],
    ['researcher', 'agent', 2, 4, 36],
    ['support workflow', 'orchestrator', 1, 1, 0],
    ['support_swarm', 'orchestrator', 1, 2, 0],
    ['triage', 'agent', 1, 2, 7],
  ]);
  const total = agents.reduce((n: number, a: any) => n + a.total_input_tokens, 0);
  assert.equal(total, 30 + 7 + 4 + 6, "every model call's tokens once over the whole list");
  const members = (name: string) =>
    agents
      .find((a: any) => a.agent_name === name)
      .members.map((m: any) => [m.agent_name, m.invocation_count, m.total_input_tokens]);
  assert.deepEqual(members('support_swarm'), [['researcher', 1, 30]], "the member's figures inside the swarm only");
  assert.deepEqual(members('support workflow'), [['triage', 1, 7]]);
  assert.equal(agents.find((a: any) => a.agent_name === 'planner').members, undefined);

  const spans = await spansBy(project);
  assert.deepEqual(
    ['swarm', 'node', 'member', 'member-call'].map((n) => [spans.get(n).owner_agent_name, spans.get(n).tokens_counted]),
    [
      ['support_swarm', 0],
      ['support_swarm', 0],
      ['researcher', 0],
      ['researcher', 1],
    ],
  );
  const { versions } = await read('/agents/agent-versions/query', { project_id: project, agent_name: 'support_swarm' });
  assert.deepEqual(
    versions.map((v: any) => [v.agent_version, v.kind]),
    [['', 'orchestrator']],
  );
});
