// include_costs on /call/read, /calls/stream_query and /calls/query: summary.weave.costs
// (weave-api.md §3.8), priced from the default catalogue and from project prices.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem, jsonl } from './helpers/calls.js';

const OTHER = 'test-entity/other-project';
const COST_KEYS = [
  'cache_creation_input_token_cost',
  'cache_creation_input_tokens',
  'cache_creation_input_tokens_total_cost',
  'cache_read_input_token_cost',
  'cache_read_input_tokens',
  'cache_read_input_tokens_total_cost',
  'completion_token_cost',
  'completion_token_cost_unit',
  'completion_tokens',
  'completion_tokens_total_cost',
  'created_at',
  'created_by',
  'effective_date',
  'pricing_level',
  'pricing_level_id',
  'prompt_token_cost',
  'prompt_token_cost_unit',
  'prompt_tokens',
  'prompt_tokens_total_cost',
  'provider_id',
  'requests',
  'total_tokens',
];
let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

/** Logs a finished call with this usage, started at `startedAt`; returns its id. */
async function logCall(
  usage: Record<string, unknown>,
  startedAt = '2026-11-21T05:03:29.057Z',
  project = PROJECT,
): Promise<string> {
  const s = start({ started_at: startedAt, project_id: project });
  const e = end(s.id, { ended_at: '2026-11-21T05:03:30.000Z', summary: { usage }, project_id: project });
  const r = await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(e)] });
  assert.equal(r.status, 200, r.text);
  return s.id;
}

async function costsOf(id: string, project = PROJECT): Promise<Record<string, any> | undefined> {
  const r = await t.post('/call/read', { project_id: project, id, include_costs: true });
  assert.equal(r.status, 200, r.text);
  return r.body.call.summary.weave.costs;
}

const setPrice = async (
  llmId: string,
  prompt: number,
  completion: number,
  effective_date?: string,
  project = PROJECT,
) => {
  const r = await t.post('/cost/create', {
    project_id: project,
    costs: {
      [llmId]: {
        prompt_token_cost: prompt,
        completion_token_cost: completion,
        ...(effective_date ? { effective_date } : {}),
      },
    },
  });
  assert.equal(r.status, 200, r.text);
};

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${a} != ${b}`);

test("a default price is applied, with every key of the newest Weave's cost block", async () => {
  const id = await logCall({
    'gpt-4o-mini-2024-07-18': { prompt_tokens: 1000, completion_tokens: 500, requests: 2, total_tokens: 1500 },
  });
  const c = (await costsOf(id))!['gpt-4o-mini-2024-07-18'];
  assert.deepEqual(Object.keys(c).sort(), COST_KEYS);
  assert.deepEqual([c.prompt_tokens, c.completion_tokens, c.requests, c.total_tokens], [1000, 500, 2, 1500]);
  assert.deepEqual([c.prompt_token_cost, c.completion_token_cost], [1.5e-7, 6e-7]);
  close(c.prompt_tokens_total_cost, 1000 * 1.5e-7);
  close(c.completion_tokens_total_cost, 500 * 6e-7);
  assert.deepEqual([c.pricing_level, c.pricing_level_id, c.provider_id], ['default', 'default', 'openai']);
  assert.match(c.created_by, /^@pydantic\/genai-prices /);
  // The catalogue dates a price only where it changed: no effective date or creation time here.
  assert.deepEqual(
    [c.prompt_token_cost_unit, c.completion_token_cost_unit, c.effective_date, c.created_at],
    ['USD', 'USD', null, null],
  );
  assert.deepEqual(
    [
      c.cache_read_input_tokens,
      c.cache_creation_input_tokens,
      c.cache_read_input_tokens_total_cost,
      c.cache_creation_input_tokens_total_cost,
    ],
    [0, 0, 0, 0],
  );
});

test('a project price overrides the default price; other projects keep the default', async () => {
  await setPrice('gpt-4.1', 0.5, 0.25, '2025-05-01T00:00:00Z');
  const usage = { 'gpt-4.1': { prompt_tokens: 10, completion_tokens: 4, requests: 1, total_tokens: 14 } };
  const own = (await costsOf(await logCall(usage)))!['gpt-4.1'];
  assert.deepEqual(
    [
      own.prompt_token_cost,
      own.completion_token_cost,
      own.pricing_level,
      own.pricing_level_id,
      own.created_by,
      own.provider_id,
    ],
    [0.5, 0.25, 'project', PROJECT, LOCAL_USER, 'default'],
  );
  assert.deepEqual([own.prompt_tokens_total_cost, own.completion_tokens_total_cost], [5, 1]);
  const other = (await costsOf(await logCall(usage, undefined, OTHER), OTHER))!['gpt-4.1'];
  assert.deepEqual([other.prompt_token_cost, other.pricing_level], [2e-6, 'default']);
});

test('a price that takes effect after the call started is not used when an earlier one exists', async () => {
  await setPrice('house-model', 1, 10, '2024-01-01T00:00:00Z');
  await setPrice('house-model', 2, 20, '2026-12-01T00:00:00Z');
  await setPrice('house-model', 3, 30, '2026-06-01T00:00:00Z');
  const usage = { 'house-model': { prompt_tokens: 1, completion_tokens: 1 } };
  const at = async (startedAt: string) =>
    (await costsOf(await logCall(usage, startedAt)))!['house-model'].prompt_token_cost;
  assert.equal(await at('2026-11-21T05:03:29.057Z'), 3, 'the newest price in force');
  assert.equal(await at('2025-01-01T00:00:00Z'), 1, 'the only price in force then');
  assert.equal(await at('2027-01-01T00:00:00Z'), 2);
  // The catalogue's own price changes: o3 cost $10/$40 per million until 2025-06-10, $2/$8 after.
  const o3 = async (startedAt: string) => (await costsOf(await logCall({ o3: { prompt_tokens: 1 } }, startedAt)))!.o3;
  assert.deepEqual(
    [(await o3('2025-05-01T00:00:00Z')).prompt_token_cost, (await o3('2025-05-01T00:00:00Z')).effective_date],
    [1e-5, null],
  );
  assert.deepEqual(
    [(await o3('2025-07-01T00:00:00Z')).prompt_token_cost, (await o3('2025-07-01T00:00:00Z')).effective_date],
    [2e-6, '2025-06-10T00:00:00.000Z'],
  );
});

test('a project price in force beats the default; a project price not yet in force does not', async () => {
  await setPrice('claude-sonnet-4-5-20250929', 9, 9, '2025-01-01T00:00:00Z');
  const usage = { 'claude-sonnet-4-5-20250929': { input_tokens: 1 } };
  assert.equal((await costsOf(await logCall(usage)))!['claude-sonnet-4-5-20250929'].pricing_level, 'project');
  await setPrice('claude-haiku-4-5-20251001', 9, 9, '2027-01-01T00:00:00Z');
  const later = (await costsOf(await logCall({ 'claude-haiku-4-5-20251001': { input_tokens: 1 } })))![
    'claude-haiku-4-5-20251001'
  ];
  assert.deepEqual(
    [later.pricing_level, later.prompt_token_cost],
    ['default', 1e-6],
    'a future project price loses to a default in force',
  );
});

test('input_tokens and output_tokens are folded into prompt and completion tokens, as Weave does', async () => {
  const id = await logCall({
    'claude-3-5-haiku-20241022': { input_tokens: 100, output_tokens: 50, requests: 1 },
    'gpt-4o-mini': { prompt_tokens: 10, input_tokens: 5, completion_tokens: 3, output_tokens: 2, total_tokens: 20 },
  });
  const costs = (await costsOf(id))!;
  const h = costs['claude-3-5-haiku-20241022'];
  assert.deepEqual([h.prompt_tokens, h.completion_tokens, h.requests, h.total_tokens], [100, 50, 1, 0]);
  close(h.prompt_tokens_total_cost, 100 * 8e-7);
  close(h.completion_tokens_total_cost, 50 * 4e-6);
  const m = costs['gpt-4o-mini'];
  assert.deepEqual([m.prompt_tokens, m.completion_tokens, m.requests, m.total_tokens], [15, 5, 0, 20]);
});

test('llm_ids without a price are omitted; no costs key when nothing is priced', async () => {
  const mixed = (await costsOf(
    await logCall({ 'gpt-5-nano': { prompt_tokens: 1 }, 'no-such-llm': { prompt_tokens: 1 } }),
  ))!;
  assert.deepEqual(Object.keys(mixed), ['gpt-5-nano']);
  assert.equal(await costsOf(await logCall({ 'no-such-llm': { prompt_tokens: 1 } })), undefined);
  assert.equal(await costsOf(await logCall({})), undefined);
  const s = start();
  await t.post('/call/start', { start: s });
  assert.equal(await costsOf(s.id), undefined, 'a running call has no usage');
});

test('costs appear only when asked for, on every read path', async () => {
  const id = await logCall({ 'gemini-2.5-flash': { prompt_tokens: 100, completion_tokens: 10 } });
  const plain = await t.post('/call/read', { project_id: PROJECT, id });
  assert.equal(plain.body.call.summary.weave.costs, undefined);
  assert.equal(
    (await t.post('/call/read', { project_id: PROJECT, id, include_costs: false })).body.call.summary.weave.costs,
    undefined,
  );
  const body = { project_id: PROJECT, filter: { call_ids: [id] }, include_costs: true };
  const streamed = await t.post('/calls/stream_query', body);
  assert.equal(jsonl(streamed.text)[0].summary.weave.costs['gemini-2.5-flash'].prompt_token_cost, 3e-7);
  const listed = await t.post('/calls/query', body);
  assert.equal(listed.body.calls[0].summary.weave.costs['gemini-2.5-flash'].completion_token_cost, 2.5e-6);
  const withColumns = await t.post('/calls/stream_query', { ...body, columns: ['summary'] });
  assert.ok(jsonl(withColumns.text)[0].summary.weave.costs['gemini-2.5-flash']);
  assert.equal(jsonl(withColumns.text)[0].summary.weave.status, 'success', 'the rest of summary.weave is kept');
});

test('prices are looked up once per chunk of calls, not per call', async () => {
  const ids = [];
  for (let i = 0; i < 120; i++)
    ids.push(await logCall({ [i % 2 ? 'o3-mini' : 'gpt-5']: { prompt_tokens: i, completion_tokens: 1 } }));
  const costs = t.store.costs;
  const lookup = costs.findProjectPrices.bind(costs);
  let lookups = 0;
  costs.findProjectPrices = (projectId, llmIds) => {
    lookups += 1;
    return lookup(projectId, llmIds);
  };
  try {
    const r = await t.post('/calls/stream_query', {
      project_id: PROJECT,
      filter: { call_ids: ids },
      include_costs: true,
    });
    const calls = jsonl(r.text);
    assert.equal(calls.length, 120);
    assert.ok(calls.every((c) => Object.keys(c.summary.weave.costs).length === 1));
    assert.equal(lookups, 2, 'the stream renders calls in chunks of 100');
  } finally {
    costs.findProjectPrices = lookup;
  }
});

test('include_costs with a columns list that leaves out summary still answers summary.weave.costs (as Weave)', async () => {
  await setPrice('cols-llm', 0.5, 1);
  const id = await logCall({ 'cols-llm': { prompt_tokens: 2, completion_tokens: 3, requests: 1 } });
  const rows = jsonl(
    (
      await t.post('/calls/stream_query', {
        project_id: PROJECT,
        filter: { call_ids: [id] },
        columns: ['id', 'inputs'],
        include_costs: true,
      })
    ).text,
  );
  assert.equal(rows[0].summary.weave.costs['cols-llm'].prompt_tokens_total_cost, 1);
  assert.equal(rows[0].summary.weave.costs['cols-llm'].completion_tokens_total_cost, 3);
  const without = jsonl(
    (await t.post('/calls/stream_query', { project_id: PROJECT, filter: { call_ids: [id] }, columns: ['id'] })).text,
  );
  assert.deepEqual(without[0].summary, {}, 'without include_costs an unselected summary stays empty');
});
