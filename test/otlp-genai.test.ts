// GenAI instrumentations as applications run them: the OpenInference and OpenLLMetry
// (Traceloop) OpenAI instrumentations wrap the real `openai` client, which talks to a
// local fake OpenAI (plain and streamed answers); the real OTLP protobuf exporter sends the
// spans to Weft. Each runs in a child process (the instrumentations patch `require`).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startWeftServer, type WeftServer } from './sdk/sdk-harness.js';
import { callsOf } from './helpers/otlp.js';

const MODEL = 'gpt-4o-mini-2024-07-18';
const USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 70,
  total_tokens: 1270,
  prompt_tokens_details: { cached_tokens: 1024 },
};

/** A loopback stand-in for POST /v1/chat/completions, plain JSON or server-sent events. */
function fakeOpenAi(): Promise<Server> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      const id = 'chatcmpl-fake';
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created: 1_790_000_000,
            model: MODEL,
            choices: [
              { index: 0, message: { role: 'assistant', content: 'Hello from the fake.' }, finish_reason: 'stop' },
            ],
            usage: USAGE,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null, usage?: object) =>
        res.write(
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_790_000_000, model: MODEL, choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`,
        );
      chunk({ role: 'assistant', content: 'Streamed ' }, null);
      chunk({ content: 'hello.' }, null);
      chunk({}, 'stop');
      if (body.stream_options?.include_usage) chunk({}, null, USAGE);
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

const SCRIPT = `
const { NodeTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-node');
const { resourceFromAttributes } = require('@opentelemetry/resources');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const which = process.env.INSTRUMENTATION;
const { OpenAIInstrumentation } = require(which === 'openinference' ? '@arizeai/openinference-instrumentation-openai' : '@traceloop/instrumentation-openai');
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'genai-app', 'wandb.entity': 'genai', 'wandb.project': which }),
  spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: process.env.WEFT_URL + '/otel/v1/traces' }))],
});
provider.register();
const instrumentation = new OpenAIInstrumentation(which === 'traceloop' ? { traceContent: true } : {});
registerInstrumentations({ instrumentations: [instrumentation], tracerProvider: provider });
const OpenAI = require('openai');
const client = new OpenAI({ baseURL: process.env.FAKE_URL + '/v1', apiKey: 'sk-test' });
const messages = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello' }];
(async () => {
  const plain = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, temperature: 0.1 });
  const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true } });
  let text = '';
  for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
  await provider.forceFlush();
  await provider.shutdown();
  console.log('RESULT ' + JSON.stringify({ plain: plain.choices[0].message.content, streamed: text }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

let w: WeftServer;
let fake: Server;
let dir: string;
before(async () => {
  w = await startWeftServer();
  fake = await fakeOpenAi();
  dir = mkdtempSync(join(tmpdir(), 'weft-genai-'));
  writeFileSync(join(dir, 'app.cjs'), SCRIPT);
});
after(async () => {
  await new Promise((r) => fake.close(r));
  await w.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runApp(instrumentation: 'openinference' | 'traceloop'): Promise<any> {
  const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  const child = spawn(process.execPath, [join(dir, 'app.cjs')], {
    env: {
      ...process.env,
      INSTRUMENTATION: instrumentation,
      WEFT_URL: w.url,
      FAKE_URL: fakeUrl,
      NODE_PATH: resolve(import.meta.dirname, '..', 'node_modules'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  assert.equal(code, 0, err);
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  return JSON.parse(line!.slice(7));
}

test('OpenInference: request and response, messages, model, token counts and their cost', async () => {
  const app = await runApp('openinference');
  assert.deepEqual(app, { plain: 'Hello from the fake.', streamed: 'Streamed hello.' });
  const calls = await callsOf(w.t, 'genai/openinference', { include_costs: true });
  assert.equal(calls.length, 2);
  const [plain, streamed] = calls;
  for (const c of calls) {
    assert.equal(c.op_name, 'OpenAI Chat Completions');
    assert.equal(c.parent_id, null);
    assert.deepEqual(c.inputs.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello' },
    ]);
    assert.equal(c.attributes.kind, 'LLM');
    assert.equal(c.attributes.provider, 'openai');
    assert.equal(c.exception, null);
  }
  assert.equal(plain.inputs.model, 'gpt-4o-mini');
  assert.equal(plain.output.choices[0].message.content, 'Hello from the fake.');
  assert.equal(plain.attributes.model, MODEL);
  assert.equal(plain.attributes.model_parameters.temperature, 0.1);
  assert.deepEqual(plain.summary.usage[MODEL], {
    requests: 1,
    prompt_tokens: 1200,
    completion_tokens: 70,
    total_tokens: 1270,
    prompt_tokens_details: { cached_tokens: 1024 },
  });
  const cost = plain.summary.weave.costs[MODEL];
  assert.ok(cost.prompt_tokens_total_cost > 0 && cost.completion_tokens_total_cost > 0, JSON.stringify(cost));
  // Cached prompt tokens are billed at the cache price: less than 1,200 uncached ones.
  assert.ok(cost.prompt_tokens_total_cost < 1200 * cost.prompt_token_cost, JSON.stringify(cost));
  assert.match(JSON.stringify(streamed.output), /Streamed hello\./);
});

test('OpenLLMetry (Traceloop): gen_ai.* messages with parts, provider, model and usage', async () => {
  const app = await runApp('traceloop');
  assert.deepEqual(app, { plain: 'Hello from the fake.', streamed: 'Streamed hello.' });
  const calls = await callsOf(w.t, 'genai/traceloop', { include_costs: true });
  assert.equal(calls.length, 2);
  for (const c of calls) {
    assert.equal(c.op_name, 'chat gpt-4o-mini');
    assert.equal(c.attributes.provider, 'openai');
    assert.equal(c.attributes.operation, 'chat');
    assert.equal(c.inputs.messages.length, 2);
    assert.equal(c.inputs.messages[1].role, 'user');
    assert.match(JSON.stringify(c.inputs.messages[1]), /Say hello/);
    assert.ok(Array.isArray(c.output), JSON.stringify(c.output));
    assert.equal(c.output[0].role, 'assistant');
  }
  const [plain] = calls;
  assert.match(JSON.stringify(plain.output), /Hello from the fake\./);
  assert.equal(plain.attributes.model, MODEL);
  const usage = plain.summary.usage[MODEL];
  assert.equal(usage.prompt_tokens, 1200);
  assert.equal(usage.completion_tokens, 70);
  assert.equal(usage.total_tokens, 1270);
  assert.ok(plain.summary.weave.costs[MODEL].prompt_tokens_total_cost > 0);
});
