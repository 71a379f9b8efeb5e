// Usage that arrives in spans is priced as the SDKs' is (issue 14's catalogue): the token
// counts of each convention, cached and cache-write tokens included, read back through
// include_costs, whose *_total_cost fields must sum to calcPrice of @pydantic/genai-prices
// on the same tokens.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes } from '@opentelemetry/api';
import { calcPrice, type Usage } from '@pydantic/genai-prices';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { callsOf, postOtlp, record } from './helpers/otlp.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const genAi = (model: string, input: number, output: number, read = 0, write = 0): Attributes => ({
  'gen_ai.request.model': model,
  'gen_ai.usage.input_tokens': input,
  'gen_ai.usage.output_tokens': output,
  ...(read ? { 'gen_ai.usage.cache_read.input_tokens': read } : {}),
  ...(write ? { 'gen_ai.usage.cache_creation.input_tokens': write } : {}),
});
const openInference = (model: string, prompt: number, completion: number, read = 0, write = 0): Attributes => ({
  'llm.model_name': model,
  'llm.token_count.prompt': prompt,
  'llm.token_count.completion': completion,
  ...(read ? { 'llm.token_count.prompt_details.cache_read': read } : {}),
  ...(write ? { 'llm.token_count.prompt_details.cache_write': write } : {}),
});
const vercel = (model: string, input: number, output: number, cached = 0): Attributes => ({
  'ai.model.id': model,
  'ai.usage.inputTokens': input,
  'ai.usage.outputTokens': output,
  ...(cached ? { 'ai.usage.cachedInputTokens': cached } : {}),
});

/** [span attributes, model, the same tokens as genai-prices counts them] */
const CASES: [Attributes, string, Usage][] = [
  [
    genAi('claude-sonnet-4-5', 15_000, 400, 10_000, 2_000),
    'claude-sonnet-4-5',
    { input_tokens: 15_000, cache_read_tokens: 10_000, cache_write_tokens: 2_000, output_tokens: 400 },
  ],
  [
    genAi('gpt-5-mini', 5_000, 1_000, 4_096),
    'gpt-5-mini',
    { input_tokens: 5_000, cache_read_tokens: 4_096, output_tokens: 1_000 },
  ],
  [
    genAi('gemini-2.5-flash', 8_000, 400, 6_000),
    'gemini-2.5-flash',
    { input_tokens: 8_000, cache_read_tokens: 6_000, output_tokens: 400 },
  ],
  [genAi('deepseek-chat', 3_000, 300), 'deepseek-chat', { input_tokens: 3_000, output_tokens: 300 }],
  [
    openInference('claude-haiku-4-5-20251001', 9_010, 50, 9_000),
    'claude-haiku-4-5-20251001',
    { input_tokens: 9_010, cache_read_tokens: 9_000, output_tokens: 50 },
  ],
  [openInference('gpt-4.1', 2_000, 100, 0, 0), 'gpt-4.1', { input_tokens: 2_000, output_tokens: 100 }],
  [
    vercel('gpt-4o-2024-08-06', 3_000, 500, 1_024),
    'gpt-4o-2024-08-06',
    { input_tokens: 3_000, cache_read_tokens: 1_024, output_tokens: 500 },
  ],
  [
    vercel('grok-4', 6_000, 900, 2_000),
    'grok-4',
    { input_tokens: 6_000, cache_read_tokens: 2_000, output_tokens: 900 },
  ],
];

const billed = (c: Record<string, number>) =>
  c.prompt_tokens_total_cost! +
  c.completion_tokens_total_cost! +
  c.cache_read_input_tokens_total_cost! +
  c.cache_creation_input_tokens_total_cost!;

test('span usage of each convention costs what calcPrice says for the same tokens', async () => {
  const rec = record({ 'wandb.project': 'costs/otlp' }, (tracer) => {
    CASES.forEach(([attrs], i) => {
      tracer
        .startSpan(`llm ${i}`, { attributes: attrs, startTime: new Date(Date.UTC(2026, 10, 20, 10, 0, i)) })
        .end(new Date(Date.UTC(2026, 10, 20, 10, 0, i, 500)));
    });
  });
  assert.equal((await postOtlp(t, rec.protobuf)).status, 200);
  const calls = await callsOf(t, 'costs/otlp', { include_costs: true });
  assert.equal(calls.length, CASES.length);
  calls.forEach((call, i) => {
    const [, model, tokens] = CASES[i]!;
    const expected = calcPrice(tokens, model, { timestamp: new Date(Date.UTC(2026, 10, 20, 10, 0, i)) });
    assert.ok(expected, `${model} is in the catalogue`);
    const c = call.summary.weave.costs?.[model];
    assert.ok(c, `${model} is priced: ${JSON.stringify(call.summary)}`);
    assert.ok(
      Math.abs(billed(c) - expected.total_price) <= 1e-9 * expected.total_price,
      `${model}: ${billed(c)} != ${expected.total_price}`,
    );
    assert.equal(c.prompt_tokens, tokens.input_tokens, model);
    assert.equal(c.cache_read_input_tokens, tokens.cache_read_tokens ?? 0, model);
  });
});
