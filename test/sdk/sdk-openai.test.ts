// The real weave SDK's wrapOpenAI against a local fake OpenAI endpoint: usage lands in the
// summary, and include_costs prices it from Weft's default price table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { assertRanCleanly, eventually, runSdk, startWeftServer, type WeftServer } from './sdk-harness.js';
import { jsonl } from '../helpers/calls.js';

const require = createRequire(import.meta.url);
const OPENAI_ENTRY = createRequire(require.resolve('weave')).resolve('openai');

let w: WeftServer;
let fake: Server;
let fakeUrl = '';
let requests = 0;

before(async () => {
  w = await startWeftServer();
  fake = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests += 1;
      const asked = JSON.parse(body || '{}');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-weft',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: asked.model ?? 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Paris.' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
        }),
      );
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
});
after(async () => {
  await w.close();
  await new Promise((r) => fake.close(r));
});

test('wrapOpenAI: the completion call carries usage, and include_costs prices it', async () => {
  const project = 'sdk-e2e/openai';
  const run = await runSdk(
    w.url,
    project,
    `
  const OpenAI = require(${JSON.stringify(OPENAI_ENTRY)});
  const openai = weave.wrapOpenAI(new OpenAI({ apiKey: 'sk-fake', baseURL: ${JSON.stringify(fakeUrl)} }));
  const ask = weave.op(async function ask(q) {
    const r = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });
    return r.choices[0].message.content;
  });
  out.answer = await ask('Capital of France?');
  `,
  );
  assertRanCleanly(run);
  assert.equal(run.result.answer, 'Paris.');
  assert.ok(requests >= 1);
  const calls = await eventually(async () => {
    const c = jsonl((await w.t.post('/calls/stream_query', { project_id: project, include_costs: true })).text);
    return c.length >= 2 && c.every((x) => x.ended_at) ? c : null;
  }, 'the ask and completion calls');
  const completion = calls.find((c) => c.op_name.includes('openai.chat.completions.create'));
  assert.ok(completion, calls.map((c) => c.op_name).join(', '));
  const usage = completion.summary.usage['gpt-4o-mini'];
  assert.equal(usage.prompt_tokens, 11);
  assert.equal(usage.completion_tokens, 3);
  const cost = completion.summary.weave.costs['gpt-4o-mini'];
  assert.ok(cost, JSON.stringify(completion.summary));
  assert.equal(cost.prompt_tokens, 11);
  assert.equal(cost.completion_tokens, 3);
  assert.equal(cost.pricing_level, 'default');
  assert.ok(cost.prompt_token_cost > 0 && cost.completion_token_cost > 0);
  assert.equal(cost.prompt_tokens_total_cost, 11 * cost.prompt_token_cost);
  assert.equal(cost.completion_tokens_total_cost, 3 * cost.completion_token_cost);
  const root = calls.find((c) => c.parent_id === null)!;
  assert.ok(root.summary.weave.costs['gpt-4o-mini'], 'the parent (with rolled-up usage) is priced too');
  const withoutCosts = jsonl((await w.t.post('/calls/stream_query', { project_id: project })).text);
  assert.ok(withoutCosts.every((c) => c.summary.weave.costs === undefined));
});
