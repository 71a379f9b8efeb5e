// The real OpenTelemetry JS exporters (OTLP/HTTP protobuf and JSON, plain and gzip) sending
// to a real Weft on a real port, through a NodeTracerProvider with a batch processor as an
// application would set it up, and each exporter's own export() result.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { context, trace, SpanStatusCode } from '@opentelemetry/api';
import {
  NodeTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { startWeftServer, type WeftServer } from './sdk/sdk-harness.js';
import { callsOf } from './helpers/otlp.js';
import { startTestApp } from './helpers/test-app.js';

let w: WeftServer;
before(async () => {
  w = await startWeftServer();
});
after(() => w.close());

type Exporter = ProtoExporter | JsonExporter;
const EXPORTERS: [string, (url: string, headers: Record<string, string>) => Exporter][] = [
  ['proto', (url, headers) => new ProtoExporter({ url, headers })],
  ['proto-gzip', (url, headers) => new ProtoExporter({ url, headers, compression: 'gzip' as never })],
  ['json', (url, headers) => new JsonExporter({ url, headers })],
  ['json-gzip', (url, headers) => new JsonExporter({ url, headers, compression: 'gzip' as never })],
];

const auth = { Authorization: `Basic ${Buffer.from('api:any-key').toString('base64')}` };

/** An agent with an LLM step and a failing tool, made under `provider`. */
function agentRun(provider: NodeTracerProvider): string {
  const tracer = provider.getTracer('weft-exporter-test', '1.0.0');
  const root = tracer.startSpan('agent.run', { attributes: { 'wandb.thread_id': 'thread-1', 'wandb.is_turn': true } });
  const ctx = trace.setSpan(context.active(), root);
  const chat = tracer.startSpan(
    'chat gpt-4o',
    {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.response.model': 'gpt-4o-2024-08-06',
        'gen_ai.request.temperature': 0.2,
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 30,
        'gen_ai.usage.cache_read.input_tokens': 100,
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
        'gen_ai.output.messages': JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: 'hello' }], finish_reason: 'stop' },
        ]),
      },
    },
    ctx,
  );
  chat.end();
  const tool = tracer.startSpan('tool lookup', { attributes: { input: 'weft' } }, ctx);
  tool.recordException(new RangeError('no such page'));
  tool.setStatus({ code: SpanStatusCode.ERROR, message: 'no such page' });
  tool.end();
  root.end();
  return root.spanContext().traceId;
}

for (const [name, make] of EXPORTERS) {
  test(`${name}: an application's batch processor exports a trace that reads back as calls`, async () => {
    const project = `exp/${name}`;
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'weft-test' }),
      spanProcessors: [new BatchSpanProcessor(make(`${w.url}/otel/v1/traces`, { ...auth, project_id: project }))],
    });
    const traceId = agentRun(provider);
    await provider.forceFlush();
    await provider.shutdown();
    // Spans started within the same microsecond: in name order.
    const calls = (await callsOf(w.t, project, { include_costs: true })).sort((a, b) =>
      a.op_name.localeCompare(b.op_name),
    );
    assert.deepEqual(
      calls.map((c) => c.op_name),
      ['agent.run', 'chat gpt-4o', 'tool lookup'],
    );
    assert.ok(calls.every((c) => c.trace_id === traceId));
    const [root, chat, tool] = calls;
    assert.equal(chat.parent_id, root.id);
    assert.equal(tool.parent_id, root.id);
    assert.equal(root.thread_id, 'thread-1');
    assert.equal(root.turn_id, root.id);
    assert.equal(tool.exception, 'RangeError: no such page');
    assert.deepEqual(tool.inputs, { input: 'weft' });
    assert.deepEqual(chat.inputs, { messages: [{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }] });
    assert.deepEqual(chat.output, [
      { role: 'assistant', parts: [{ type: 'text', content: 'hello' }], finish_reason: 'stop' },
    ]);
    assert.equal(chat.attributes.provider, 'openai');
    assert.deepEqual(chat.attributes.model_parameters, { temperature: 0.2 });
    const usage = chat.summary.usage['gpt-4o-2024-08-06'];
    assert.deepEqual(usage, {
      requests: 1,
      prompt_tokens: 120,
      completion_tokens: 30,
      total_tokens: 150,
      prompt_tokens_details: { cached_tokens: 100 },
    });
    const cost = chat.summary.weave.costs['gpt-4o-2024-08-06'];
    assert.ok(cost.prompt_tokens_total_cost > 0 && cost.completion_tokens_total_cost > 0, JSON.stringify(cost));
  });
}

test('each exporter reports success from its own export(), and failure for an export without a project', async () => {
  for (const [name, make] of EXPORTERS) {
    const memory = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'wandb.entity': 'direct', 'wandb.project': name }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    agentRun(provider);
    const spans = memory.getFinishedSpans();
    const exporter = make(`${w.url}/otel/v1/traces`, auth);
    const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
    assert.equal(result.code, 0, `${name}: ${result.error?.message}`);
    await exporter.shutdown();
    assert.equal((await callsOf(w.t, `direct/${name}`)).length, 3, name);
    // No project at all: the exporter sees the 400 as a failed export.
    const noProject = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
    memory.reset();
    noProject.getTracer('x').startSpan('lost').end();
    const refused = make(`${w.url}/otel/v1/traces`, auth);
    const bad = await new Promise<{ code: number; error?: Error }>((resolve) =>
      refused.export(memory.getFinishedSpans(), resolve),
    );
    assert.equal(bad.code, 1, name);
    await refused.shutdown();
  }
});

test("an exporter set up by the README's environment variables alone", async () => {
  const saved = { ...process.env };
  // Keyed, so that the Authorization header must arrive intact.
  const keyed = await startTestApp({ keys: [{ user: 'otel', entity: 'from-env', role: 'writer' }] });
  const url = await keyed.app.listen({ host: '127.0.0.1', port: 0 });
  const key = keyed.keys[0]!.key;
  process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${url}/otel/v1/traces`;
  process.env.OTEL_EXPORTER_OTLP_TRACES_HEADERS = `project_id=from-env/app,Authorization=Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
  try {
    const memory = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
    agentRun(provider);
    const exporter = new ProtoExporter();
    const result = await new Promise<{ code: number; error?: Error }>((resolve) =>
      exporter.export(memory.getFinishedSpans(), resolve),
    );
    assert.equal(result.code, 0, result.error?.message);
    await exporter.shutdown();
    const count = await keyed.post(
      '/calls/query_stats',
      { project_id: 'from-env/app' },
      { authorization: `Bearer ${key}` },
    );
    assert.equal(count.body.count, 3);
  } finally {
    for (const k of ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await keyed.close();
  }
});
