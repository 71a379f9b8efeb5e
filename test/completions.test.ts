// /completions/create, /completions/create_stream and /completions/models over HTTP, on either
// engine, against loopback stand-ins of an OpenAI-compatible provider (allowed by
// WEFT_OUTBOUND_ALLOWED_HOSTS, as an operator allows Ollama): custom providers and builtin ones
// (their base URL overridden), the entity's secret as the key, prompts with template
// variables, the tracked call with usage and cost, the stream's framing, and every failure as
// Weave answers it (200, response.error): unknown model, missing secret, refused host, a name
// resolving to loopback, a redirect to a private address, the provider's error and its timeout.
// No secret value reaches an answer or a stored byte.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLAIN_ANSWER, startModelStandin, type ModelStandin } from './helpers/model-standin.js';
import { PROJECT, startTestApp, type TestApp } from './helpers/test-app.js';
import { storedText } from './helpers/stored-text.js';

const ENTITY = PROJECT.split('/')[0]!;
const SECRET = `sk-standin-${randomBytes(12).toString('hex')}`;
const ENV_SECRET = `sk-env-${randomBytes(12).toString('hex')}`;
let standin: ModelStandin;
/** Answers 401, hangs, redirects to a private address, or streams one chunk and holds, by path. */
let trouble: Server;
let troubleUrl: string;
let t: TestApp;
/** Resolves when the provider's held stream (/drip/) is closed by its client, Weft. */
let dripClosed: Promise<void>;
let onDripClosed = () => {};

const hostOf = (url: string) => new URL(url).host;
const jsonl = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
const user = (content: string) => ({ role: 'user', content });

async function createObj(objectId: string, cls: string, val: Record<string, unknown>) {
  const r = await t.post('/obj/create', {
    obj: { project_id: PROJECT, object_id: objectId, val, builtin_object_class: cls },
  });
  assert.equal(r.status, 200, r.text);
  return r.body.digest as string;
}

async function provider(name: string, baseUrl: string, model = 'gpt-standin', extra: Record<string, string> = {}) {
  await createObj(name, 'Provider', { name, base_url: baseUrl, api_key_name: 'STANDIN_KEY', extra_headers: extra });
  await createObj(`${name}-${model.replace(/[^a-zA-Z0-9_-]/g, '_')}`, 'ProviderModel', {
    name: model,
    provider: name,
    max_tokens: 512,
  });
}

const create = (inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  t.post('/completions/create', { project_id: PROJECT, inputs, ...extra });

const readCall = async (id: string) => {
  const r = await t.post('/call/read', { project_id: PROJECT, id, include_costs: true });
  assert.equal(r.status, 200, r.text);
  return r.body.call;
};

before(async () => {
  standin = await startModelStandin();
  trouble = createServer((req, res) => {
    if (req.url?.startsWith('/hang/')) return; // never answers
    if (req.url?.startsWith('/drip/')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const delta = { role: 'assistant', content: 'Once' };
      res.write(
        `data: ${JSON.stringify({ id: 'd', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
      );
      res.on('close', () => onDripClosed());
      return;
    }
    if (req.url?.startsWith('/redirect/')) {
      res.writeHead(307, { location: 'http://10.9.9.9/v1/chat/completions' });
      return res.end();
    }
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
  });
  await new Promise<void>((r) => trouble.listen(0, '127.0.0.1', r));
  troubleUrl = `http://127.0.0.1:${(trouble.address() as AddressInfo).port}`;
  t = await startTestApp({
    outboundAllowedHosts: [hostOf(standin.url), hostOf(troubleUrl)],
    env: { WEFT_PROVIDER_OPENAI_BASE_URL: `${standin.url}/v1`, WEFT_SECRET_OPENAI_API_KEY: ENV_SECRET },
  });
  const set = await t.post('/admin/secrets/set', { entity: ENTITY, name: 'STANDIN_KEY', value: SECRET });
  assert.equal(set.status, 200, set.text);
  await provider('standin', `${standin.url}/v1/`, 'gpt-standin', { 'X-Team': 'weft' });
});
after(async () => {
  await t?.close();
  await standin?.close();
  trouble?.closeAllConnections();
  trouble?.close();
});

test('a custom provider: the answer, the key and headers sent, the call tracked with usage', async () => {
  const before = standin.calls.length;
  const r = await create({
    model: 'custom::standin::gpt-standin',
    messages: [user('hi')],
    temperature: 0.2,
    seed: null,
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.response.choices[0].message.content, PLAIN_ANSWER);
  assert.equal(typeof r.body.weave_call_id, 'string');
  const sent = standin.calls.slice(before);
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.path, '/v1/chat/completions');
  assert.equal(sent[0]!.headers.authorization, `Bearer ${SECRET}`);
  assert.equal(sent[0]!.headers['x-team'], 'weft');
  assert.deepEqual(sent[0]!.body, { model: 'gpt-standin', messages: [user('hi')], temperature: 0.2 });

  const call = await readCall(r.body.weave_call_id);
  assert.equal(call.op_name, 'weave.completions_create');
  assert.equal(call.trace_id, r.body.trace_id);
  assert.equal(call.inputs.model, 'custom::standin::gpt-standin');
  assert.deepEqual(call.output.choices, r.body.response.choices);
  assert.equal(call.exception, null);
  assert.deepEqual(call.summary.usage['standin/gpt-standin'], {
    requests: 1,
    prompt_tokens: 7,
    completion_tokens: 3,
    total_tokens: 10,
  });
  // The older form, <provider>/<model>, and the ProviderModel's own id reach the same model.
  for (const model of ['standin/gpt-standin', 'custom::standin-gpt-standin']) {
    const again = await create({ model, messages: [user('hi')] }, { track_llm_call: false });
    assert.equal(again.body.response.choices?.[0]?.message.content, PLAIN_ANSWER, model);
    assert.equal(again.body.weave_call_id, null);
  }
});

test('a builtin provider at its overridden base URL, with the server-wide secret; the call has a cost', async () => {
  const before = standin.calls.length;
  const r = await create({ model: 'gpt-4o-mini', messages: [user('hello')] });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.response.choices[0].message.content, PLAIN_ANSWER);
  assert.equal(standin.calls[before]!.headers.authorization, `Bearer ${ENV_SECRET}`);
  assert.equal(standin.calls[before]!.body.model, 'gpt-4o-mini');
  const call = await readCall(r.body.weave_call_id);
  const cost = call.summary.weave.costs['gpt-4o-mini'];
  assert.ok(cost.prompt_tokens_total_cost > 0 && cost.completion_tokens_total_cost > 0, JSON.stringify(cost));
  // openai/<model> is the same provider, named.
  const named = await create({ model: 'openai/gpt-4o-mini', messages: [user('hello')] }, { track_llm_call: false });
  assert.equal(named.body.response.choices[0].message.content, PLAIN_ANSWER);
  assert.equal(standin.calls.at(-1)!.body.model, 'gpt-4o-mini');
});

test('the stream: _meta first, the chunks as they come, the call ended with the whole completion', async () => {
  const r = await t.post('/completions/create_stream', {
    project_id: PROJECT,
    inputs: { model: 'custom::standin::gpt-standin', messages: [user('hi')] },
  });
  assert.equal(r.status, 200, r.text);
  assert.match(String(r.headers['content-type']), /application\/jsonl/);
  const lines = jsonl(r.text);
  const meta = lines[0]._meta;
  assert.equal(typeof meta.weave_call_id, 'string');
  assert.equal(typeof meta.trace_id, 'string');
  const chunks = lines.slice(1);
  assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
  assert.equal(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join(''), PLAIN_ANSWER);
  assert.deepEqual(chunks.at(-1).usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  assert.deepEqual(standin.calls.at(-1)!.body.stream_options, { include_usage: true });
  const call = await readCall(meta.weave_call_id);
  assert.equal(call.output.object, 'chat.completion');
  assert.deepEqual(call.output.choices, [
    { index: 0, message: { role: 'assistant', content: PLAIN_ANSWER }, finish_reason: 'stop' },
  ]);
  assert.equal(call.summary.usage['standin/gpt-standin'].completion_tokens, 3);
  assert.equal(call.ended_at !== null, true);
  // Untracked: no _meta line, the chunks only.
  const quiet = await t.post('/completions/create_stream', {
    project_id: PROJECT,
    inputs: { model: 'custom::standin::gpt-standin', messages: [user('hi')] },
    track_llm_call: false,
  });
  assert.equal(jsonl(quiet.text)[0].object, 'chat.completion.chunk');
});

test('a MessagesPrompt leads the messages; template variables fill every message but the assistant’s', async () => {
  // As the SDK publishes it: the value carries its own class envelope.
  const created = await t.post('/obj/create', {
    obj: {
      project_id: PROJECT,
      object_id: 'weather-prompt',
      val: {
        _type: 'MessagesPrompt',
        _class_name: 'MessagesPrompt',
        _bases: ['Prompt', 'Object', 'BaseModel'],
        name: 'weather-prompt',
        description: null,
        messages: [
          { role: 'system', content: 'You forecast {city}. Braces {{stay}}.' },
          { role: 'assistant', content: 'Ask me about {city}.' },
        ],
      },
    },
  });
  assert.equal(created.status, 200, created.text);
  const digest = created.body.digest as string;
  const ref = `weave:///${PROJECT}/object/weather-prompt:${digest}`;
  for (const prompt of [ref, 'weather-prompt', `weather-prompt:${digest}`]) {
    const r = await create({
      model: 'custom::standin::gpt-standin',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in {city}?' }] }],
      prompt,
      template_vars: { city: 'Paris' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.response.error, undefined, prompt);
    assert.deepEqual(standin.calls.at(-1)!.body.messages, [
      { role: 'system', content: 'You forecast Paris. Braces {stay}.' },
      { role: 'assistant', content: 'Ask me about {city}.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
    ]);
    const call = await readCall(r.body.weave_call_id);
    assert.equal(call.inputs.prompt, prompt);
    assert.deepEqual(call.inputs.template_vars, { city: 'Paris' });
    assert.deepEqual(call.inputs.messages, [{ role: 'user', content: [{ type: 'text', text: 'Weather in {city}?' }] }]);
  }
  const missing = await create({ model: 'custom::standin::gpt-standin', prompt: ref, template_vars: {} });
  assert.deepEqual(missing.body.response, { error: 'Missing template variable: city' });
  const notPrompt = await create({ model: 'custom::standin::gpt-standin', prompt: 'standin' });
  assert.match(notPrompt.body.response.error, /standin is not a Prompt/);
});

test('nested under a caller: the given trace and parent; a conversation becomes the thread', async () => {
  const trace = '019a0000-0000-7000-8000-000000000001';
  const parent = '019a0000-0000-7000-8000-000000000002';
  const r = await create(
    { model: 'custom::standin::gpt-standin', messages: [user('hi')] },
    { trace_id: trace, parent_id: parent, conversation_id: 'conv-1', source: 'playground' },
  );
  assert.equal(r.body.trace_id, trace);
  assert.equal(r.body.conversation_id, 'conv-1');
  const call = await readCall(r.body.weave_call_id);
  assert.equal(call.trace_id, trace);
  assert.equal(call.parent_id, parent);
  assert.equal(call.thread_id, 'conv-1');
  assert.equal(call.attributes.source, 'playground');
});

test('failures are 200 with response.error, as Weave answers them, and never hold the secret', async () => {
  const base = `${troubleUrl}`;
  await provider('unauthorized', `${base}/unauthorized/v1`);
  await provider('hang', `${base}/hang/v1`);
  await provider('redirect', `${base}/redirect/v1`);
  // A port of the stand-in's host that the allowed list does not name.
  await provider('closed', 'http://127.0.0.1:9/v1');
  // A name resolving to loopback, at a port no entry allows.
  await provider('byname', 'http://localhost:9/v1');
  await createObj('nosecret', 'Provider', { base_url: `${standin.url}/v1`, api_key_name: 'ABSENT_KEY' });
  await createObj('nosecret-m', 'ProviderModel', { name: 'm', provider: 'nosecret', max_tokens: 5 });
  const cases: [string, Record<string, unknown>, RegExp, number?][] = [
    ['unknown-model-xyz', {}, /Unknown model "unknown-model-xyz"/],
    ['custom::nobody::m', {}, /Failed to fetch provider model information: no ProviderModel nobody-m/],
    ['custom::nosecret::m', {}, /No API key ABSENT_KEY found .*weft secrets set --entity test-entity ABSENT_KEY/],
    ['claude-sonnet-4-5', {}, /No API key ANTHROPIC_API_KEY found/],
    ['custom::unauthorized::gpt-standin', {}, /^Incorrect API key provided$/, 401],
    ['custom::hang::gpt-standin', { timeout: 0.3 }, /did not answer in time/],
    ['custom::redirect::gpt-standin', {}, /refused: 10\.9\.9\.9 is .*WEFT_OUTBOUND_ALLOWED_HOSTS=10\.9\.9\.9:80/],
    ['custom::closed::gpt-standin', {}, /refused: 127\.0\.0\.1 is .*WEFT_OUTBOUND_ALLOWED_HOSTS=127\.0\.0\.1:9/],
    ['custom::byname::gpt-standin', {}, /refused: localhost resolves to .*WEFT_OUTBOUND_ALLOWED_HOSTS=localhost:9/],
  ];
  for (const [model, extra, error, status] of cases) {
    const r = await create({ model, messages: [user('hi')], ...extra });
    assert.equal(r.status, 200, `${model}: ${r.text}`);
    assert.match(String(r.body.response.error), error, model);
    assert.equal(r.body.response.status_code, status, model);
    assert.ok(!r.text.includes(SECRET), model);
    const s = await t.post('/completions/create_stream', {
      project_id: PROJECT,
      inputs: { model, messages: [user('hi')], ...extra },
    });
    assert.equal(s.status, 200, s.text);
    const last = jsonl(s.text).at(-1);
    assert.match(String(last.error), error, `${model} (stream)`);
    // A failure of the provider itself is tracked: the call ends with the error as its exception.
    if (r.body.weave_call_id !== null) {
      const call = await readCall(r.body.weave_call_id);
      assert.match(String(call.exception), error, model);
    }
  }
});

test('a client leaving the stream stops the provider’s stream; the call ends saying so', async () => {
  await provider('drip', `${troubleUrl}/drip/v1`);
  dripClosed = new Promise<void>((r) => (onDripClosed = r));
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const abort = new AbortController();
  const res = await fetch(`${url}/completions/create_stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      project_id: PROJECT,
      inputs: { model: 'custom::drip::gpt-standin', messages: [user('a long story')] },
    }),
    signal: abort.signal,
  });
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('Once')) text += new TextDecoder().decode((await reader.read()).value);
  const meta = JSON.parse(text.split('\n')[0]!)._meta;
  abort.abort();
  await dripClosed;
  // The call's end is written once the stream is torn down.
  let call: any;
  for (let i = 0; i < 100 && !(call = await readCall(meta.weave_call_id)).ended_at; i++)
    await new Promise((r) => setTimeout(r, 20));
  assert.equal(call.exception, 'The client closed the stream');
  assert.equal(call.output.choices[0].message.content, 'Once');
});

test('a refused host is never contacted: a listening server the allowed list does not name', async () => {
  let contacted = 0;
  const unlisted = createServer((_req, res) => {
    contacted++;
    res.end();
  });
  unlisted.on('connection', () => contacted++);
  await new Promise<void>((r) => unlisted.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(unlisted.address() as AddressInfo).port}`;
    await provider('unlisted', `${url}/v1`);
    const r = await create({ model: 'custom::unlisted::gpt-standin', messages: [user('hi')] });
    assert.match(String(r.body.response.error), /refused: 127\.0\.0\.1 is .*WEFT_OUTBOUND_ALLOWED_HOSTS/);
    assert.equal(contacted, 0, 'the refused host got a connection');
  } finally {
    unlisted.close();
  }
});

test('/completions/models: builtin providers and the project’s own, with which secret is set', async () => {
  const r = await t.post('/completions/models', { project_id: PROJECT });
  assert.equal(r.status, 200, r.text);
  const byName = new Map(r.body.providers.map((p: any) => [p.name, p]));
  const openai: any = byName.get('openai');
  assert.equal(openai.kind, 'builtin');
  assert.equal(openai.base_url, `${standin.url}/v1`);
  assert.equal(openai.secret_set, true);
  assert.equal((byName.get('anthropic') as any).secret_set, false);
  const custom: any = byName.get('standin');
  assert.equal(custom.kind, 'custom');
  assert.equal(custom.secret_name, 'STANDIN_KEY');
  assert.equal(custom.secret_set, true);
  assert.match(custom.ref, /^weave:\/\/\/test-entity\/test-project\/object\/standin:/);
  assert.deepEqual(custom.models, [
    { id: 'custom::standin::gpt-standin', provider: 'standin', name: 'gpt-standin', max_tokens: 512 },
  ]);
  assert.ok(!r.text.includes(SECRET) && !r.text.includes(ENV_SECRET));
});

test('malformed requests are 422 naming the field; nothing is called', async () => {
  const before = standin.calls.length;
  for (const [body, field] of [
    [{ project_id: PROJECT, inputs: {} }, 'model'],
    [{ project_id: PROJECT, inputs: { model: 'gpt-4o', messages: 'hi' } }, 'messages'],
    [{ project_id: PROJECT, inputs: { model: 'gpt-4o', temperature: 'hot' } }, 'temperature'],
    [{ project_id: PROJECT }, 'inputs'],
    [{ project_id: PROJECT, inputs: { model: 'gpt-4o' }, stray: 1 }, 'stray'],
  ] as const) {
    for (const path of ['/completions/create', '/completions/create_stream']) {
      const r = await t.post(path, body);
      assert.equal(r.status, 422, `${path} ${JSON.stringify(body)}: ${r.text}`);
      assert.match(JSON.stringify(r.body.detail), new RegExp(field));
    }
  }
  assert.equal((await t.postRaw('/completions/create', '{"project_id":')).status, 400);
  assert.equal(standin.calls.length, before);
});

test('no secret value in any stored row, log-free answers aside', async () => {
  const stored = await storedText(t);
  assert.ok(stored.length > 0);
  assert.ok(!stored.includes(SECRET), 'the entity secret is stored in clear');
  assert.ok(!stored.includes(ENV_SECRET), 'the server-wide secret reached storage');
});
