// /agents/query and /agents/agent-versions/query through HTTP: figures kept on write, each span
// counted for the agent of its nearest invoke_agent ancestor (sub-agents keep their own), an
// agent span's own token sum not counted twice, children that arrive first, traces sent again,
// errors, versions, sorting and costs from the price catalogue.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
const ENTITY = PROJECT.split('/')[0]!;

before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const newProject = () => `${ENTITY}/agents-rollups-${hexId(4)}`;
const resourceOf = (p: string) => ({ 'wandb.entity': ENTITY, 'wandb.project': p.split('/')[1]! });
async function send(project: string, spans: TestSpan[]) {
  const r = await t.postRaw('/agents/otel/v1/traces', otlpJson(resourceOf(project), spans), 'application/json');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {});
}
async function agents(project: string, body: Record<string, unknown> = {}) {
  const r = await t.post('/agents/query', { project_id: project, ...body });
  assert.equal(r.status, 200, r.text);
  return r.body as { agents: Record<string, unknown>[]; total_count: number };
}

const agent = (
  traceId: string,
  name: string,
  version: string,
  startMs: number,
  parent?: string,
  status?: 0 | 2,
): TestSpan => ({
  traceId,
  spanId: hexId(8),
  ...(parent === undefined ? {} : { parentSpanId: parent }),
  name: `invoke_agent ${name}`,
  startMs,
  endMs: startMs + 1000,
  status: status ?? 0,
  attributes: {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': name,
    'gen_ai.agent.version': version,
    'gen_ai.conversation.id': `c-${traceId.slice(0, 6)}`,
  },
});
const chat = (
  traceId: string,
  parent: string,
  model: string,
  input: number,
  output: number,
  startMs: number,
): TestSpan => ({
  traceId,
  spanId: hexId(8),
  parentSpanId: parent,
  name: `chat ${model}`,
  startMs,
  endMs: startMs + 100,
  attributes: {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model,
    'gen_ai.usage.input_tokens': input,
    'gen_ai.usage.output_tokens': output,
  },
});

test('each agent counts its own invocations and the model calls under it; sub-agents keep theirs', async () => {
  const p = newProject();
  const t0 = Date.UTC(2026, 10, 20, 12);
  for (let i = 0; i < 2; i++) {
    const trace = hexId(16);
    const root = agent(trace, 'planner', 'v1', t0 + i * 10_000);
    const sub = agent(trace, 'researcher', 'r1', t0 + i * 10_000 + 100, root.spanId);
    await send(p, [
      root,
      chat(trace, root.spanId, 'gpt-4o', 100, 10, t0 + i * 10_000 + 10),
      sub,
      chat(trace, sub.spanId, 'gpt-4o', 7, 3, t0 + i * 10_000 + 200),
    ]);
  }
  const got = await agents(p, { sort_by: [{ field: 'agent_name', direction: 'asc' }] });
  assert.equal(got.total_count, 2);
  const [planner, researcher] = got.agents;
  assert.deepEqual(
    { ...planner, first_seen: undefined, last_seen: undefined },
    {
      project_id: p,
      agent_name: 'planner',
      invocation_count: 2,
      span_count: 4,
      total_input_tokens: 200,
      total_output_tokens: 20,
      total_duration_ms: 2000,
      error_count: 0,
      first_seen: undefined,
      last_seen: undefined,
      total_cost_usd: null,
      kind: 'agent',
    },
  );
  assert.equal(planner!.first_seen, new Date(t0).toISOString());
  assert.equal(researcher!.agent_name, 'researcher');
  assert.equal(researcher!.invocation_count, 2);
  assert.equal(researcher!.total_input_tokens, 14);
});

test("an agent span's own token sum is not counted again; a child sent first is counted once its parent arrives", async () => {
  const p = newProject();
  const trace = hexId(16);
  const root = agent(trace, 'strands', 'v1', Date.now());
  const withSum: TestSpan = {
    ...root,
    attributes: { ...root.attributes, 'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': 5 },
  };
  const c1 = chat(trace, root.spanId, 'gpt-4o', 30, 3, Date.now());
  const c2 = chat(trace, root.spanId, 'gpt-4o', 20, 2, Date.now());
  await send(p, [c1, c2]);
  assert.equal((await agents(p)).total_count, 0, 'no owner yet');
  await send(p, [withSum]);
  const [a] = (await agents(p)).agents;
  assert.equal(a!.total_input_tokens, 50);
  assert.equal(a!.total_output_tokens, 5);
  assert.equal(a!.span_count, 3);
  const stored = await t.post('/agents/spans/query', {
    project_id: p,
    sort_by: [{ field: 'started_at', direction: 'asc' }],
  });
  const flags = Object.fromEntries(
    stored.body.spans.map((x: { span_id: string; tokens_counted: number }) => [x.span_id, x.tokens_counted]),
  );
  assert.deepEqual(flags, { [withSum.spanId]: 0, [c1.spanId]: 1, [c2.spanId]: 1 });
  await send(p, [withSum, c1, c2]);
  const [again] = (await agents(p)).agents;
  assert.equal(again!.total_input_tokens, 50, 'a trace sent again replaces what it added');
  assert.equal(again!.span_count, 3);
  // An agent span with no model calls under it counts its own tokens.
  const lone = hexId(16);
  await send(p, [
    {
      ...agent(lone, 'claude', 'v1', Date.now()),
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'claude',
        'gen_ai.usage.input_tokens': 9,
      },
    },
  ]);
  const claude = (await agents(p, { filters: { agent_name: 'claude' } })).agents;
  assert.equal(claude.length, 1);
  assert.equal(claude[0]!.total_input_tokens, 9);
});

test('versions side by side, errors, sorting, paging and costs', async () => {
  const p = newProject();
  const t0 = Date.now();
  const runs: [string, 0 | 2][] = [
    ['v1', 0],
    ['v1', 2],
    ['v2', 0],
  ];
  for (const [i, [version, status]] of runs.entries()) {
    const trace = hexId(16);
    const root = agent(trace, 'support', version, t0 + i * 1000, undefined, status);
    await send(p, [root, chat(trace, root.spanId, 'gpt-4o', 1_000_000, 0, t0 + i * 1000 + 1)]);
  }
  const other = hexId(16);
  const o = agent(other, 'mystery', 'v1', t0);
  await send(p, [o, chat(other, o.spanId, 'no-such-model-xyz', 10, 10, t0)]);

  const versions = await t.post('/agents/agent-versions/query', {
    project_id: p,
    agent_name: 'support',
    include_costs: true,
    sort_by: [{ field: 'agent_version', direction: 'asc' }],
  });
  assert.equal(versions.status, 200, versions.text);
  assert.equal(versions.body.total_count, 2);
  const [v1, v2] = versions.body.versions;
  assert.equal(v1.agent_version, 'v1');
  assert.equal(v1.invocation_count, 2);
  assert.equal(v1.error_count, 1);
  assert.equal(v2.invocation_count, 1);
  // gpt-4o's input price in the catalogue is $2.50 per million tokens.
  assert.ok(Math.abs(v1.total_cost_usd - 5) < 1e-9, String(v1.total_cost_usd));
  assert.ok(Math.abs(v2.total_cost_usd - 2.5) < 1e-9, String(v2.total_cost_usd));

  const all = await agents(p, { include_costs: true, sort_by: [{ field: 'invocation_count', direction: 'desc' }] });
  assert.deepEqual(
    all.agents.map((a) => a.agent_name),
    ['support', 'mystery'],
  );
  assert.equal(all.agents[1]!.total_cost_usd, null, 'a model without a price: null, not 0');
  const page = await agents(p, { limit: 1, offset: 1, sort_by: [{ field: 'agent_name', direction: 'asc' }] });
  assert.deepEqual(
    page.agents.map((a) => a.agent_name),
    ['support'],
  );
  assert.equal(page.total_count, 2);

  assert.equal((await t.post('/agents/query', { project_id: p, sort_by: [{ field: 'nope' }] })).status, 422);
  assert.equal((await t.post('/agents/agent-versions/query', { project_id: p })).status, 422);
  assert.equal((await t.post('/agents/query', { project_id: p, limit: 10_001 })).status, 422);
});

test('writes sent at once (batched together on ClickHouse) keep the figures exact', async () => {
  const p = newProject();
  const t0 = Date.UTC(2026, 10, 21, 12);
  const requests: TestSpan[][] = [];
  for (let i = 0; i < 12; i++) {
    const trace = hexId(16);
    const root = agent(trace, i % 2 === 0 ? 'even' : 'odd', 'v1', t0 + i * 10_000);
    const call = chat(trace, root.spanId, 'gpt-4o', 10, 1, t0 + i * 10_000 + 10);
    // The model call first, its root in another request, and the call sent twice.
    requests.push([call], [root], [call]);
  }
  await Promise.all(requests.map((spans) => send(p, spans)));
  const rows = (await agents(p)).agents.map((a) => [a.agent_name, a.invocation_count, a.total_input_tokens]);
  assert.deepEqual(rows.sort(), [
    ['even', 6, 60],
    ['odd', 6, 60],
  ]);
});
