// The `openai` client on the safe fetch (its `fetch` option), against a small OpenAI-compatible
// endpoint on loopback that the allowed-hosts list lets through: a plain chat completion, and a
// streaming one whose chunks arrive while the endpoint is still answering.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { OutboundRefusedError } from './outbound-error.js';
import { createSafeFetch } from './safe-fetch.js';

const seen: { body: any; headers: IncomingHttpHeaders }[] = [];
let releaseStream = () => {};
let port = 0;
const server = createServer(async (req, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw);
  seen.push({ body, headers: req.headers });
  const base = { id: 'chatcmpl-1', created: 1_790_000_000, model: body.model };
  if (!body.stream) {
    const message = { role: 'assistant', content: 'Hello from loopback.' };
    const usage = { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: 'stop' }],
        usage,
      }),
    );
    return;
  }
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: 'Hel' }, null));
  // The rest waits until the test has read the first chunk through the client.
  await new Promise<void>((r) => (releaseStream = r));
  res.write(chunk({ content: 'lo' }, null));
  res.write(chunk({}, 'stop'));
  res.end('data: [DONE]\n\n');
});

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const client = (allowedHosts: string[]) =>
  new OpenAI({
    apiKey: 'sk-test-key',
    baseURL: `http://127.0.0.1:${port}/v1`,
    fetch: createSafeFetch({ allowedHosts }),
    maxRetries: 0,
  });

test('a plain chat completion through the safe fetch', async () => {
  const completion = await client([`127.0.0.1:${port}`]).chat.completions.create({
    model: 'local-model',
    messages: [{ role: 'user', content: 'Say hello' }],
  });
  assert.equal(completion.choices[0]?.message.content, 'Hello from loopback.');
  assert.equal(completion.usage?.total_tokens, 9);
  const request = seen.at(-1)!;
  assert.deepEqual(request.body.messages, [{ role: 'user', content: 'Say hello' }]);
  assert.equal(request.headers.authorization, 'Bearer sk-test-key');
});

test('a streaming chat completion arrives chunk by chunk', async () => {
  const stream = await client([`127.0.0.1:${port}`]).chat.completions.create({
    model: 'local-model',
    messages: [{ role: 'user', content: 'Say hello' }],
    stream: true,
  });
  const deltas: string[] = [];
  for await (const chunk of stream) {
    deltas.push(chunk.choices[0]?.delta.content ?? '');
    // The endpoint sends the rest only now: had the body been buffered, this loop would never start.
    if (deltas.length === 1) releaseStream();
  }
  assert.deepEqual(deltas, ['Hel', 'lo', '']);
  assert.equal(seen.at(-1)?.body.stream, true);
});

test('a host not listed is refused before anything is sent: the client reports the refusal as its cause', async () => {
  const before = seen.length;
  await assert.rejects(
    client([]).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    (err: unknown) => {
      assert.ok(err instanceof OpenAI.APIConnectionError);
      assert.ok(err.cause instanceof OutboundRefusedError);
      assert.match(err.cause.message, new RegExp(`WEFT_OUTBOUND_ALLOWED_HOSTS=127\\.0\\.0\\.1:${port}$`));
      return true;
    },
  );
  assert.equal(seen.length, before);
});
