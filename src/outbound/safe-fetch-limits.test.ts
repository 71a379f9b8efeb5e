// Time and size bounds on real sockets, and bodies streamed as they arrive (server-sent events).
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { OutboundTimeoutError, OutboundTooLargeError } from './outbound-error.js';
import { createSafeFetch, type SafeFetch } from './safe-fetch.js';

const closers: (() => void)[] = [];
after(() => {
  for (const close of closers) close();
});

/** A fetch allowed to reach a server on 127.0.0.1 answering with `handler`, and the server's origin. */
async function serve(handler: RequestListener, limits = {}): Promise<{ origin: string; safeFetch: SafeFetch }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => server.closeAllConnections());
  closers.push(() => server.close());
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    safeFetch: createSafeFetch({ allowedHosts: [`127.0.0.1:${port}`], limits }),
  };
}

const timedOut = (phase: string) => (err: unknown) =>
  err instanceof OutboundTimeoutError && err.phase === phase && err.status === 503;

test('connect timeout: a name that does not resolve in time', async () => {
  const safeFetch = createSafeFetch({
    allowedHosts: ['slow.example'],
    resolver: () => new Promise(() => {}),
    limits: { connectTimeoutMs: 100 },
  });
  const started = Date.now();
  await assert.rejects(safeFetch('http://slow.example/'), (err: unknown) => {
    assert.ok(timedOut('connect')(err));
    assert.equal((err as Error).message, 'timed out: no connection to slow.example:80 within 100 ms');
    return true;
  });
  assert.ok(Date.now() - started < 2000);
});

test('total timeout: a server that never answers, and one that stops in the middle of its body', async () => {
  const silent = await serve(() => {});
  await assert.rejects(silent.safeFetch(`${silent.origin}/`, {}, { totalTimeoutMs: 150 }), timedOut('total'));
  const stalls = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first part;');
  });
  const res = await stalls.safeFetch(`${stalls.origin}/`, {}, { totalTimeoutMs: 300 });
  assert.equal(res.status, 200);
  await assert.rejects(res.text(), (err: unknown) => {
    assert.ok(timedOut('total')(err));
    assert.match((err as Error).message, /^timed out: the answer from 127\.0\.0\.1:\d+ did not end within 300 ms$/);
    return true;
  });
});

test("the caller's abort signal ends the exchange with its reason", async () => {
  const stalls = await serve((_req, res) => {
    res.writeHead(200);
    res.write('x');
  });
  const controller = new AbortController();
  const res = await stalls.safeFetch(`${stalls.origin}/`, { signal: controller.signal });
  const reading = res.text();
  controller.abort();
  await assert.rejects(reading, { name: 'AbortError' });
  await assert.rejects(stalls.safeFetch(`${stalls.origin}/`, { signal: AbortSignal.abort() }), { name: 'AbortError' });
});

test('size cap: a declared length over the cap fails at once; a chunked body fails when it passes the cap', async () => {
  const big = 'a'.repeat(200_000);
  const declared = await serve((_req, res) => res.writeHead(200, { 'content-length': big.length }).end(big), {
    maxResponseBytes: 100_000,
  });
  await assert.rejects(declared.safeFetch(`${declared.origin}/`), (err: unknown) => {
    assert.ok(err instanceof OutboundTooLargeError);
    assert.equal(err.status, 503);
    assert.match(err.message, /^too large: the answer from 127\.0\.0\.1:\d+ passed 100000 bytes$/);
    return true;
  });
  const chunked = await serve((_req, res) => {
    for (let i = 0; i < 20; i++) res.write(big.slice(0, 10_000));
    res.end();
  });
  const res = await chunked.safeFetch(`${chunked.origin}/`, {}, { maxResponseBytes: 100_000 });
  await assert.rejects(res.text(), OutboundTooLargeError);
  const fits = await chunked.safeFetch(`${chunked.origin}/`, {}, { maxResponseBytes: 200_000 });
  assert.equal((await fits.text()).length, 200_000);
});

test('a body cut short by the server fails instead of ending early', async () => {
  const s = await serve((_req, res) => {
    res.writeHead(200, { 'content-length': 100 });
    res.write('{"partial": ');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  const res = await s.safeFetch(`${s.origin}/`);
  await assert.rejects(res.text());
});

test('a compressed body is decoded, and the cap counts its decoded bytes', async () => {
  const text = 'b'.repeat(300_000);
  const zipped = gzipSync(text);
  const s = await serve((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(zipped));
  assert.ok(zipped.length < 10_000);
  assert.equal(await (await s.safeFetch(`${s.origin}/`)).text(), text);
  const capped = await s.safeFetch(`${s.origin}/`, {}, { maxResponseBytes: 100_000 });
  await assert.rejects(capped.text(), OutboundTooLargeError);
});

test('a streamed body reaches the reader event by event, as the server sends it', async () => {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const s = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"n":1}\n\n');
    released.then(() => {
      res.write('data: {"n":2}\n\n');
      res.end('data: [DONE]\n\n');
    });
  });
  const res = await s.safeFetch(`${s.origin}/v1/chat/completions`, { method: 'POST', body: '{}' });
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  // The server holds its second event until the first has been read here: a buffered body would hang.
  const first = await reader.read();
  assert.equal(first.value, 'data: {"n":1}\n\n');
  release();
  let rest = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value;
  assert.equal(rest, 'data: {"n":2}\n\ndata: [DONE]\n\n');
});

test('requests carry their method, headers and body; HEAD and 204 answers have no body', async () => {
  const s = await serve(async (req, res) => {
    if (req.method === 'HEAD' || req.url === '/empty') return res.writeHead(req.url === '/empty' ? 204 : 200).end();
    let body = '';
    for await (const chunk of req) body += chunk;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({ method: req.method, type: req.headers['content-type'], auth: req.headers.authorization, body }),
    );
  });
  const init = {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body: '{"q":1}',
  };
  const res = await s.safeFetch(`${s.origin}/v1/x`, init);
  assert.deepEqual(await res.json(), { method: 'POST', type: 'application/json', auth: 'Bearer k', body: '{"q":1}' });
  assert.equal((await s.safeFetch(`${s.origin}/`, { method: 'HEAD' })).body, null);
  const empty = await s.safeFetch(`${s.origin}/empty`);
  assert.deepEqual([empty.status, empty.body], [204, null]);
});
