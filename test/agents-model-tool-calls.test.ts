// include_model_tool_calls on /agents/traces/chat and /agents/conversations/chat, through HTTP:
// a tool call a model asked for shows even when no execute_tool span ran it (no status, no
// duration, at the model call's end), once per call id, its result taken from a later model
// call's input that answers it; a call some execution ran is that execution, right after the
// model call; input messages, tool-role outputs and parts that are not named calls ask for
// nothing; off by default. Weave's chat-view tests describe the same rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
const [ENTITY, NAME] = PROJECT.split('/') as [string, string];
const RESOURCE = { 'wandb.entity': ENTITY, 'wandb.project': NAME };
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const msgs = (role: string, ...p: Record<string, unknown>[]) => ({ role, parts: p });
const json = (...m: Record<string, unknown>[]) => JSON.stringify(m);
const call = (id: string, name: string, args: unknown = '{}') => ({ type: 'tool_call', id, name, arguments: args });
const answer = (id: string, response: string) => ({ type: 'tool_call_response', id, response });
const T0 = Date.UTC(2026, 10, 1, 9);

async function send(spans: TestSpan[]) {
  const r = await t.postRaw('/agents/otel/v1/traces', otlpJson(RESOURCE, spans), 'application/json');
  assert.equal(r.status, 200, r.text);
}
type Message = Record<string, unknown> & { type: string; span_id: string; tool_call?: Record<string, unknown> };
async function chat(trace_id: string, include?: boolean): Promise<Message[]> {
  const r = await t.post('/agents/traces/chat', {
    project_id: PROJECT,
    trace_id,
    ...(include === undefined ? {} : { include_model_tool_calls: include }),
  });
  assert.equal(r.status, 200, r.text);
  return (r.body as { messages: Message[] }).messages;
}
const tools = (m: Message[]) => m.filter((x) => x.type === 'tool_call');

test('a requested call without an execution shows once, without status, at the model call end', async () => {
  const traceId = hexId(16);
  const [root, model] = [hexId(8), hexId(8)];
  await send([
    {
      traceId,
      spanId: root,
      name: 'invoke_agent report',
      startMs: T0,
      endMs: T0 + 2000,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'report-agent',
        'gen_ai.input.messages': json(msgs('user', { type: 'text', content: 'Publish it.' })),
        // The agent span mirrors its model call's output, call included.
        'gen_ai.output.messages': json(
          msgs('assistant', call('call-1', 'publish_answer', { message: 'Ready.' }), {
            type: 'text',
            content: 'Ready.',
          }),
        ),
      },
    },
    {
      traceId,
      spanId: model,
      parentSpanId: root,
      name: 'chat gpt-4o',
      startMs: T0 + 10,
      endMs: T0 + 1010,
      status: 2,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.output.messages': json(msgs('assistant', call('call-1', 'publish_answer', { message: 'Ready.' }))),
      },
    },
  ]);
  const on = await chat(traceId, true);
  assert.deepEqual(
    on.map((m) => m.type),
    ['user_message', 'agent_start', 'tool_call', 'assistant_message'],
  );
  const [request] = tools(on);
  assert.equal(request!.span_id, model);
  assert.equal(request!.agent_name, 'report-agent');
  assert.equal(request!.status_code, null, 'a request proves nothing about its outcome (the model call erred)');
  assert.equal(request!.started_at, new Date(T0 + 1010).toISOString());
  assert.deepEqual(request!.tool_call, {
    tool_name: 'publish_answer',
    tool_arguments: '{"message":"Ready."}',
    tool_result: null,
    duration_ms: null,
    status: null,
    content_refs: [],
  });
  assert.equal((on.at(-1)!.assistant_message as { text: string }).text, 'Ready.');
  // Off by default, and when false.
  assert.deepEqual(tools(await chat(traceId)), []);
  assert.deepEqual(tools(await chat(traceId, false)), []);
});

test('an executed call is its execution, right after the asking model call, whatever its clock', async () => {
  const traceId = hexId(16);
  const [request, execution, reply, later] = [hexId(8), hexId(8), hexId(8), hexId(8)];
  const chatSpan = (spanId: string, at: number, attributes: Record<string, string>): TestSpan => ({
    traceId,
    spanId,
    name: 'chat',
    startMs: T0 + at,
    endMs: T0 + at + 1000,
    attributes: { 'gen_ai.operation.name': 'chat', ...attributes },
  });
  await send([
    chatSpan(request, 1000, { 'gen_ai.output.messages': json(msgs('assistant', call('lookup-1', 'lookup'))) }),
    {
      traceId,
      spanId: execution,
      name: 'execute_tool lookup',
      // Its clock says it ran two minutes before the model asked for it.
      startMs: T0 - 118_000,
      endMs: T0 - 117_000,
      status: 1,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'lookup',
        'gen_ai.tool.call.id': 'lookup-1',
        'gen_ai.tool.call.result': 'found',
      },
    },
    chatSpan(reply, 3000, {
      'gen_ai.input.messages': json(
        msgs('assistant', call('lookup-1', 'lookup')),
        msgs('tool', answer('lookup-1', 'found')),
      ),
      'gen_ai.output.messages': json(msgs('assistant', call('reply-1', 'deliver'))),
    }),
    chatSpan(later, 500, { 'gen_ai.output.messages': json(msgs('assistant', { type: 'text', content: 'Summary.' })) }),
  ]);
  const on = await chat(traceId, true);
  assert.deepEqual(
    on.map((m) => m.span_id),
    [later, execution, reply],
    'the execution follows its request; the reply asks for a call nothing ran; input history asks for nothing',
  );
  assert.deepEqual(tools(on)[0]!.tool_call, {
    tool_name: 'lookup',
    tool_arguments: null,
    tool_result: 'found',
    duration_ms: 1000,
    status: 'OK',
    content_refs: [],
  });
  assert.equal(tools(on)[1]!.tool_call!.tool_name, 'deliver');
  assert.deepEqual(
    (await chat(traceId, false)).map((m) => m.span_id),
    [later, execution],
    'without the option only executions are tool calls (placed the same way)',
  );
});

test("a later model call's input answering a call gives its result; the status stays unset", async () => {
  const traceId = hexId(16);
  const [request, reply, final] = [hexId(8), hexId(8), hexId(8)];
  const question = msgs('user', { type: 'text', content: 'Prepare the report.' });
  const history = [question, msgs('assistant', call('lookup-1', 'lookup')), msgs('user', answer('lookup-1', 'found'))];
  const span = (spanId: string, at: number, input: unknown[], output: unknown[]): TestSpan => ({
    traceId,
    spanId,
    name: 'chat',
    startMs: T0 + at,
    endMs: T0 + at + 1000,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.input.messages': JSON.stringify(input),
      'gen_ai.output.messages': JSON.stringify(output),
    },
  });
  await send([
    span(
      final,
      3000,
      [...history, msgs('assistant', call('deliver-1', 'deliver'))],
      [msgs('assistant', { type: 'text', content: 'Done.' })],
    ),
    span(reply, 2000, history, [msgs('assistant', call('deliver-1', 'deliver'))]),
    span(request, 1000, [question], [msgs('assistant', call('lookup-1', 'lookup'))]),
  ]);
  const on = await chat(traceId, true);
  assert.equal((on[0]!.user_message as { text: string }).text, 'Prepare the report.');
  assert.deepEqual(
    tools(on).map((m) => [m.span_id, m.tool_call!.tool_name, m.tool_call!.tool_result, m.tool_call!.status]),
    [
      [request, 'lookup', 'found', null],
      [reply, 'deliver', null, null],
    ],
  );
  assert.equal(tools(on)[0]!.started_at, new Date(T0 + 2000).toISOString());
});

test('inputs, tool-role outputs and parts that are not named calls ask for nothing; ids may repeat when empty', async () => {
  const traceId = hexId(16);
  const model = hexId(8);
  const old = call('old', 'lookup');
  await send([
    {
      traceId,
      spanId: model,
      name: 'chat',
      startMs: T0,
      endMs: T0 + 1000,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.input.messages': json(msgs('assistant', old)),
        'gen_ai.output.messages': json(
          msgs(
            'assistant',
            { type: 'tool_call', name: 42 },
            { type: 'tool_call', name: '' },
            { type: 'text', content: 'x' },
          ),
          msgs('tool', old),
          msgs('assistant', call('', 'search'), call('', 'search')),
        ),
      },
    },
  ]);
  assert.deepEqual(
    tools(await chat(traceId, true)).map((m) => m.tool_call!.tool_name),
    ['search', 'search'],
  );
});

test('conversations/chat passes the option to every turn; a non-boolean is a 400', async () => {
  const conversation = `conv-${hexId(4)}`;
  const traceId = hexId(16);
  await send([
    {
      traceId,
      spanId: hexId(8),
      name: 'chat',
      startMs: T0,
      endMs: T0 + 1000,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.conversation.id': conversation,
        'gen_ai.output.messages': json(msgs('assistant', call('c-1', 'lookup'))),
      },
    },
  ]);
  const turnTools = async (body: Record<string, unknown>) => {
    const r = await t.post('/agents/conversations/chat', {
      project_id: PROJECT,
      conversation_id: conversation,
      ...body,
    });
    assert.equal(r.status, 200, r.text);
    return (r.body as { turns: { messages: Message[] }[] }).turns.flatMap((x) => tools(x.messages));
  };
  assert.equal((await turnTools({ include_model_tool_calls: true })).length, 1);
  assert.equal((await turnTools({})).length, 0);
  for (const path of ['/agents/conversations/chat', '/agents/traces/chat']) {
    const r = await t.post(path, {
      project_id: PROJECT,
      conversation_id: conversation,
      trace_id: traceId,
      include_model_tool_calls: 'yes',
    });
    assert.ok(r.status === 400 || r.status === 422, `${path}: ${r.status}`);
  }
});
