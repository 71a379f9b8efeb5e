// The mapping of each span convention, through HTTP: spans made by the real OpenTelemetry SDK
// with the attributes (and events) each convention writes, exported in protobuf, read back
// through /calls/stream_query and compared with a golden file per convention (what the
// call's op, inputs, output, attributes, usage, ids and exception became). To regenerate
// after a deliberate change, review the diff of:
//   WEFT_UPDATE_GOLDEN=1 node scripts/run-tests.mjs otlp-conventions
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { callsOf, postOtlp, record, SpanStatusCode, tree } from './helpers/otlp.js';

const GOLDEN = join(import.meta.dirname, 'fixtures', 'otlp-golden');

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const json = (v: unknown) => JSON.stringify(v);

/** The parts of a call a convention decides, with ids replaced by the span names they point at. */
function mapped(call: any, names: Map<string, string>, withSpan: boolean): unknown {
  const { otel_span: span, ...attributes } = call.attributes;
  return {
    op_name: call.op_name,
    display_name: call.display_name,
    parent: call.parent_id === null ? null : (names.get(call.parent_id) ?? call.parent_id),
    thread_id: call.thread_id,
    turn: call.turn_id === null ? null : (names.get(call.turn_id) ?? call.turn_id),
    wb_run_id: call.wb_run_id,
    wb_run_step: call.wb_run_step,
    wb_run_step_end: call.wb_run_step_end,
    inputs: call.inputs,
    output: call.output,
    exception: call.exception,
    attributes,
    usage: call.summary.usage ?? null,
    span_kind: span.kind,
    ...(withSpan ? { span_attributes: span.attributes, span_events: (span.events ?? []).map((e: any) => e.name) } : {}),
  };
}

const CASES: Record<
  string,
  (tracer: Tracer, child: (name: string, attrs: Attributes, fn?: (s: Span) => void) => void) => void
> = {
  openinference: (_tracer, child) => {
    child('OpenAI Chat Completions', {
      'openinference.span.kind': 'LLM',
      'llm.system': 'openai',
      'llm.provider': 'openai',
      'llm.model_name': 'gpt-4.1-mini',
      'llm.invocation_parameters': json({ model: 'gpt-4.1-mini', temperature: 0 }),
      'input.value': json({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Capital of France?' }] }),
      'input.mime_type': 'application/json',
      'output.value': json({ choices: [{ message: { role: 'assistant', content: 'Paris.' } }] }),
      'output.mime_type': 'application/json',
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.content': 'Capital of France?',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'Paris.',
      'llm.token_count.prompt': 2100,
      'llm.token_count.completion': 3,
      'llm.token_count.total': 2103,
      'llm.token_count.prompt_details.cache_read': 2048,
      'session.id': 'session-7',
    });
    child('retrieve', {
      'openinference.span.kind': 'RETRIEVER',
      'input.value': 'Capital of France?',
      'input.mime_type': 'text/plain',
      'retrieval.documents.0.document.content': 'Paris is the capital.',
    });
    child('messages only', {
      'openinference.span.kind': 'LLM',
      'llm.model_name': 'claude-sonnet-4-5',
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.content': 'Hi',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'Hello!',
    });
  },
  'gen_ai-1.37': (_tracer, child) => {
    child('chat claude-sonnet-4-5', {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.response.model': 'claude-sonnet-4-5-20250929',
      'gen_ai.request.max_tokens': 1024,
      'gen_ai.conversation.id': 'conv-1',
      'gen_ai.system_instructions': json([{ type: 'text', content: 'You are terse.' }]),
      'gen_ai.input.messages': json([{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }]),
      'gen_ai.output.messages': json([
        {
          role: 'assistant',
          parts: [{ type: 'tool_call', id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }],
          finish_reason: 'tool_call',
        },
      ]),
      'gen_ai.usage.input_tokens': 5000,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 3000,
      'gen_ai.usage.cache_creation.input_tokens': 1000,
    });
    child('execute_tool weather', {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'weather',
      'gen_ai.tool.call.id': 'call_1',
    });
  },
  'gen_ai-old': (_tracer, child) => {
    child('openai.chat', {
      'gen_ai.system': 'OpenAI',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.response.model': 'gpt-4o-2024-08-06',
      'llm.request.type': 'chat',
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'Tell me a joke',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': 'Why did...',
      'gen_ai.completion.0.finish_reason': 'stop',
      'gen_ai.usage.prompt_tokens': 10,
      'gen_ai.usage.completion_tokens': 12,
      'llm.usage.total_tokens': 22,
    });
  },
  'gen_ai-events': (_tracer, child) => {
    child(
      'chat gpt-4o',
      {
        'gen_ai.system': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 8,
        'gen_ai.usage.output_tokens': 2,
      },
      (s) => {
        s.addEvent('gen_ai.content.prompt', { 'gen_ai.prompt': json([{ role: 'user', content: 'hi' }]) });
        s.addEvent('gen_ai.content.completion', {
          'gen_ai.completion': json([{ role: 'assistant', content: 'hello' }]),
        });
      },
    );
    child('chat gpt-4o choices', { 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o' }, (s) => {
      s.addEvent('gen_ai.user.message', { content: 'hi' });
      s.addEvent('gen_ai.choice', {
        index: 0,
        finish_reason: 'stop',
        message: json({ role: 'assistant', content: 'hello' }),
      });
    });
  },
  'vercel-ai': (tracer) => {
    tree(
      tracer,
      'ai.generateText',
      {
        'ai.operationId': 'ai.generateText',
        'ai.model.id': 'gpt-4o-mini',
        'ai.model.provider': 'openai.chat',
        'ai.telemetry.functionId': 'answer',
        'ai.prompt': json({ system: 'Be kind.', prompt: 'Hello?' }),
        'ai.response.text': 'Hi there!',
        'ai.settings.maxRetries': 2,
        'ai.usage.promptTokens': 20,
        'ai.usage.completionTokens': 4,
      },
      (open) => {
        open('ai.generateText.doGenerate', {
          'ai.operationId': 'ai.generateText.doGenerate',
          'ai.model.id': 'gpt-4o-mini',
          'ai.model.provider': 'openai.chat',
          'ai.prompt.format': 'messages',
          'ai.prompt.messages': json([
            { role: 'system', content: 'Be kind.' },
            { role: 'user', content: [{ type: 'text', text: 'Hello?' }] },
          ]),
          'ai.response.text': 'Hi there!',
          'ai.response.model': 'gpt-4o-mini-2024-07-18',
          'ai.usage.inputTokens': 20,
          'ai.usage.outputTokens': 4,
          'ai.usage.totalTokens': 24,
          'ai.usage.cachedInputTokens': 0,
          'gen_ai.system': 'openai.chat',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
          'gen_ai.usage.input_tokens': 20,
          'gen_ai.usage.output_tokens': 4,
        });
        open('ai.toolCall', {
          'ai.operationId': 'ai.toolCall',
          'ai.toolCall.name': 'weather',
          'ai.toolCall.id': 'call_9',
          'ai.toolCall.args': json({ city: 'Paris' }),
          'ai.toolCall.result': json({ temp: 21 }),
        });
        open('ai.generateObject', {
          'ai.operationId': 'ai.generateObject',
          'ai.prompt': 'List two colours',
          'ai.response.object': json({ colours: ['red', 'blue'] }),
        });
      },
    );
  },
  wandb: (tracer) => {
    tree(
      tracer,
      'turn',
      {
        'wandb.display_name': 'Turn 1',
        'wandb.thread_id': 'thread-42',
        'wandb.is_turn': true,
        'wandb.wb_run_id': 'run-abc',
        'wandb.wb_run_step': 3,
        'wandb.wb_run_step_end': 4,
        'wandb.attributes': json({ team: 'search', release: 7 }),
        input: json({ question: 'why?' }),
        output: 'because',
      },
      (open) => open('step', { 'wandb.thread_id': 'thread-42', 'wandb.display_name': 'x'.repeat(1100) }),
      (root) => root.setStatus({ code: SpanStatusCode.OK }),
    );
  },
  frameworks: (_tracer, child) => {
    child('mlflow step', {
      'mlflow.spanInputs': json({ query: 'a' }),
      'mlflow.spanOutputs': json(['b']),
      'mlflow.spanType': 'CHAIN',
    });
    child('joke.workflow', {
      'traceloop.span.kind': 'workflow',
      'traceloop.entity.input': json({ args: [], kwargs: { topic: 'cats' } }),
      'traceloop.entity.output': json('a joke'),
    });
    child('agent run', { 'pydantic_ai.all_messages': json([{ role: 'user', content: 'go' }]), final_result: 'done' });
    child('plain', { inputs: json({ x: 1 }), outputs: json({ y: 2 }) });
    child('adk', {
      'gcp.vertex.agent.session_id': 'adk-session',
      'gcp.vertex.agent.llm_request': json({ contents: [] }),
      'gcp.vertex.agent.llm_response': json({ text: 'ok' }),
    });
  },
  unmatched: (_tracer, child) => {
    child(
      'GET /health',
      { 'http.request.method': 'GET', 'url.path': '/health', 'a.b': 'scalar', 'a.b.c': 'deeper' },
      (s) => {
        s.recordException({ name: 'Timeout', message: 'took too long' });
      },
    );
    child('', { 'only.kind': 1 });
  },
};

for (const [name, script] of Object.entries(CASES)) {
  test(`${name}: the calls its spans become are the golden file's`, async () => {
    const project = `golden/${name.replace(/[^a-z0-9-]/gi, '-')}`;
    const rec = record({ 'service.name': 'golden', 'wandb.project': project }, (tracer, { child }) =>
      script(tracer, child),
    );
    const res = await postOtlp(t, rec.protobuf);
    assert.equal(res.status, 200, res.text);
    const names = new Map([...rec.ids].map(([n, ids]) => [ids.spanId, n]));
    const calls = (await callsOf(t, project)).map((c) => mapped(c, names, name === 'unmatched'));
    calls.sort((a: any, b: any) => a.op_name.localeCompare(b.op_name));
    const file = join(GOLDEN, `${name}.json`);
    const text = `${JSON.stringify(calls, null, 2)}\n`;
    if (process.env.WEFT_UPDATE_GOLDEN === '1') writeFileSync(file, text);
    assert.deepEqual(JSON.parse(text), JSON.parse(readFileSync(file, 'utf8')));
  });
}
