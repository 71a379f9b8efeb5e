// Default prices from @pydantic/genai-prices: usage recorded as the Weave SDKs record it for
// current models of OpenAI, Anthropic, Google, Mistral, xAI and DeepSeek (with and without
// cached tokens, across a context tier, at a price's time of day) read back through
// include_costs, whose *_total_cost fields must sum to calcPrice of the same package on the
// same tokens; Weft's overrides; unknown models left out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { calcPrice, type Usage } from '@pydantic/genai-prices';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem } from './helpers/calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const AT = '2026-11-20T10:00:00.000Z';

async function costs(usage: Record<string, unknown>, startedAt = AT): Promise<Record<string, any> | undefined> {
  const s = start({ started_at: startedAt });
  const e = end(s.id, { ended_at: '2026-11-20T10:00:01.000Z', summary: { usage } });
  assert.equal((await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(e)] })).status, 200);
  const r = await t.post('/call/read', { project_id: PROJECT, id: s.id, include_costs: true });
  assert.equal(r.status, 200, r.text);
  return r.body.call.summary.weave.costs;
}

const billed = (c: Record<string, number>) =>
  c.prompt_tokens_total_cost! +
  c.completion_tokens_total_cost! +
  c.cache_read_input_tokens_total_cost! +
  c.cache_creation_input_tokens_total_cost!;
const near = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1e-6, Math.abs(b)), `${what}: ${a} != ${b}`);

// Shapes of summary.usage as the SDK integrations record them.
const openai = (prompt: number, completion: number, cached = 0, reasoning = 0) => ({
  requests: 1,
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: reasoning },
});
const responses = (input: number, output: number, cached = 0) => ({
  requests: 1,
  input_tokens: input,
  output_tokens: output,
  total_tokens: input + output,
  input_tokens_details: { cached_tokens: cached },
  output_tokens_details: { reasoning_tokens: 0 },
});
const anthropic = (input: number, output: number, read = 0, write = 0) => ({
  requests: 1,
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
});
const gemini = (prompt: number, candidates: number, cached = 0, thoughts = 0) => ({
  requests: 1,
  prompt_token_count: prompt,
  candidates_token_count: candidates,
  cached_content_token_count: cached,
  ...(thoughts ? { thoughts_token_count: thoughts } : {}),
  total_token_count: prompt + candidates + thoughts,
});
const deepseek = (prompt: number, completion: number, hit = 0) => ({
  requests: 1,
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_cache_hit_tokens: hit,
  prompt_cache_miss_tokens: prompt - hit,
});

/** [llm_id, recorded usage, the same tokens as genai-prices counts them, provider, at] */
const CASES: [string, Record<string, unknown>, Usage, string, string?][] = [
  [
    'gpt-5.2',
    openai(12_000, 800, 8_000, 300),
    { input_tokens: 12_000, cache_read_tokens: 8_000, output_tokens: 800 },
    'openai',
  ],
  ['gpt-5', openai(1_000, 200), { input_tokens: 1_000, output_tokens: 200 }, 'openai'],
  [
    'gpt-5-mini',
    openai(5_000, 1_000, 4_096),
    { input_tokens: 5_000, cache_read_tokens: 4_096, output_tokens: 1_000 },
    'openai',
  ],
  ['gpt-4.1', openai(2_000, 100), { input_tokens: 2_000, output_tokens: 100 }, 'openai'],
  [
    'gpt-4o-2024-08-06',
    openai(3_000, 500, 1_024),
    { input_tokens: 3_000, cache_read_tokens: 1_024, output_tokens: 500 },
    'openai',
  ],
  ['o3', openai(4_000, 2_000, 0, 1_500), { input_tokens: 4_000, output_tokens: 2_000 }, 'openai'],
  ['o4-mini', openai(900, 3_000, 0, 2_500), { input_tokens: 900, output_tokens: 3_000 }, 'openai'],
  [
    'gpt-5.1',
    responses(20_000, 700, 16_000),
    { input_tokens: 20_000, cache_read_tokens: 16_000, output_tokens: 700 },
    'openai',
  ],
  [
    'claude-opus-4-6',
    anthropic(1_000, 500, 400, 100),
    { input_tokens: 1_500, cache_read_tokens: 400, cache_write_tokens: 100, output_tokens: 500 },
    'anthropic',
  ],
  [
    'claude-sonnet-4-5-20250929',
    anthropic(150_000, 4_000, 60_000, 10_000),
    { input_tokens: 220_000, cache_read_tokens: 60_000, cache_write_tokens: 10_000, output_tokens: 4_000 },
    'anthropic',
  ],
  ['claude-sonnet-4-5', anthropic(2_000, 300), { input_tokens: 2_000, output_tokens: 300 }, 'anthropic'],
  [
    'claude-haiku-4-5-20251001',
    anthropic(10, 50, 9_000, 0),
    { input_tokens: 9_010, cache_read_tokens: 9_000, output_tokens: 50 },
    'anthropic',
  ],
  [
    'claude-opus-4-1-20250805',
    anthropic(500, 200, 0, 2_000),
    { input_tokens: 2_500, cache_write_tokens: 2_000, output_tokens: 200 },
    'anthropic',
  ],
  ['claude-sonnet-4-20250514', anthropic(1_234, 567), { input_tokens: 1_234, output_tokens: 567 }, 'anthropic'],
  [
    'gemini-3-pro-preview',
    gemini(250_000, 2_000, 100_000, 1_000),
    { input_tokens: 250_000, cache_read_tokens: 100_000, output_tokens: 3_000 },
    'google',
  ],
  ['gemini-3-pro-preview', gemini(50_000, 2_000), { input_tokens: 50_000, output_tokens: 2_000 }, 'google'],
  ['gemini-2.5-pro', gemini(300_000, 5_000, 0, 2_000), { input_tokens: 300_000, output_tokens: 7_000 }, 'google'],
  [
    'gemini-2.5-flash',
    gemini(8_000, 400, 6_000),
    { input_tokens: 8_000, cache_read_tokens: 6_000, output_tokens: 400 },
    'google',
  ],
  ['gemini-2.0-flash', gemini(1_000, 100), { input_tokens: 1_000, output_tokens: 100 }, 'google'],
  ['mistral-large-2512', openai(3_000, 600), { input_tokens: 3_000, output_tokens: 600 }, 'mistral'],
  ['mistral-small-latest', openai(1_000, 100), { input_tokens: 1_000, output_tokens: 100 }, 'mistral'],
  ['codestral-latest', openai(4_000, 1_000), { input_tokens: 4_000, output_tokens: 1_000 }, 'mistral'],
  ['mistral-medium-latest', openai(2_000, 2_000), { input_tokens: 2_000, output_tokens: 2_000 }, 'mistral'],
  ['grok-4', openai(6_000, 900, 2_000), { input_tokens: 6_000, cache_read_tokens: 2_000, output_tokens: 900 }, 'x-ai'],
  ['grok-4-fast', openai(1_000, 100), { input_tokens: 1_000, output_tokens: 100 }, 'x-ai'],
  ['grok-3-mini', openai(700, 1_400, 0, 1_000), { input_tokens: 700, output_tokens: 1_400 }, 'x-ai'],
  [
    'deepseek-chat',
    deepseek(10_000, 1_000, 6_000),
    { input_tokens: 10_000, cache_read_tokens: 6_000, output_tokens: 1_000 },
    'deepseek',
  ],
  [
    'deepseek-chat',
    deepseek(10_000, 1_000, 6_000),
    { input_tokens: 10_000, cache_read_tokens: 6_000, output_tokens: 1_000 },
    'deepseek',
    '2026-11-20T18:00:00.000Z',
  ],
  ['deepseek-reasoner', deepseek(2_000, 5_000), { input_tokens: 2_000, output_tokens: 5_000 }, 'deepseek'],
];

test(`${CASES.length} usages of current models: the cost fields sum to genai-prices' calcPrice`, async () => {
  const providers = new Set<string>();
  for (const [llm, usage, tokens, provider, at = AT] of CASES) {
    const expected = calcPrice(tokens, llm, { timestamp: new Date(at) });
    assert.ok(expected, `${llm} is in the catalogue`);
    const c = (await costs({ [llm]: usage }, at))?.[llm];
    assert.ok(c, `${llm} is priced`);
    near(billed(c), expected.total_price, `${llm} at ${at}`);
    near(
      c.prompt_tokens_total_cost + c.cache_read_input_tokens_total_cost + c.cache_creation_input_tokens_total_cost,
      expected.input_price,
      `${llm} input`,
    );
    near(c.completion_tokens_total_cost, expected.output_price, `${llm} output`);
    assert.deepEqual([c.pricing_level, c.pricing_level_id, c.provider_id], ['default', 'default', provider], llm);
    assert.equal(c.prompt_tokens, tokens.input_tokens, `${llm}: prompt_tokens counts every input token`);
    assert.equal(c.cache_read_input_tokens, tokens.cache_read_tokens ?? 0, llm);
    assert.match(c.created_by, /^@pydantic\/genai-prices \d+\.\d+\.\d+$/);
    providers.add(provider);
  }
  assert.deepEqual([...providers].sort(), ['anthropic', 'deepseek', 'google', 'mistral', 'openai', 'x-ai']);
});

test('cached tokens cost less than the same tokens uncached; a context tier raises every price of the call', async () => {
  const cold = (await costs({ 'claude-opus-4-6': anthropic(10_000, 100) }))!['claude-opus-4-6'];
  const warm = (await costs({ 'claude-opus-4-6': anthropic(1_000, 100, 9_000) }))!['claude-opus-4-6'];
  assert.equal(warm.prompt_tokens, cold.prompt_tokens);
  assert.ok(billed(warm) < billed(cold) / 2, `${billed(warm)} vs ${billed(cold)}`);
  near(warm.cache_read_input_token_cost, cold.prompt_token_cost / 10, 'cache read price');
  const short = (await costs({ 'gemini-2.5-pro': gemini(200_000, 10) }))!['gemini-2.5-pro'];
  const long = (await costs({ 'gemini-2.5-pro': gemini(200_001, 10) }))!['gemini-2.5-pro'];
  assert.ok(
    long.prompt_token_cost > short.prompt_token_cost && long.completion_token_cost > short.completion_token_cost,
  );
});

test("Weft's overrides: a dated name the catalogue lacks, an alias it maps to an old model", async () => {
  const small = (await costs({ 'mistral-small-2506': openai(1_000, 1_000) }))!['mistral-small-2506'];
  near(
    billed(small),
    calcPrice({ input_tokens: 1_000, output_tokens: 1_000 }, 'mistral-small-latest')!.total_price,
    'mistral-small-2506',
  );
  assert.match(small.created_by, /^weft override of @pydantic\/genai-prices/);
  const large = async (at: string) =>
    (await costs({ 'mistral-large-latest': openai(1_000_000, 0) }, at))!['mistral-large-latest'];
  near(
    (await large(AT)).prompt_tokens_total_cost,
    calcPrice({ input_tokens: 1_000_000 }, 'mistral-large-2512')!.total_price,
    'alias now',
  );
  near(
    (await large('2025-06-01T00:00:00.000Z')).prompt_tokens_total_cost,
    calcPrice({ input_tokens: 1_000_000 }, 'mistral-large-latest')!.total_price,
    'alias before',
  );
});

test('provider-prefixed names are matched; unknown models are left out without an error', async () => {
  const c = (await costs({ 'openai/gpt-4.1': openai(100, 10), 'made-up-model-9': openai(100, 10) }))!;
  assert.deepEqual(Object.keys(c), ['openai/gpt-4.1']);
  assert.equal(await costs({ 'made-up-model-9': openai(1, 1) }), undefined);
});

test('a project price overrides the catalogue; cache tokens are then billed at its prompt price', async () => {
  const r = await t.post('/cost/create', {
    project_id: PROJECT,
    costs: {
      'claude-haiku-4-5': {
        prompt_token_cost: 1e-6,
        completion_token_cost: 2e-6,
        effective_date: '2026-01-01T00:00:00Z',
      },
    },
  });
  assert.equal(r.status, 200, r.text);
  const c = (await costs({ 'claude-haiku-4-5': anthropic(100, 10, 1_000, 50) }))!['claude-haiku-4-5'];
  assert.equal(c.pricing_level, 'project');
  near(billed(c), (100 + 1_000 + 50) * 1e-6 + 10 * 2e-6, 'project price');
  // Before the project price's effective date the catalogue applies.
  assert.equal(
    (await costs({ 'claude-haiku-4-5': anthropic(100, 10) }, '2025-12-01T00:00:00.000Z'))!['claude-haiku-4-5']
      .pricing_level,
    'default',
  );
});
