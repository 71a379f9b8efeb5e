// The address policy on real sockets: servers on loopback, refused unless listed, judged after
// name resolution, on the address connected to and on every redirect.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import type { Resolver } from './checked-lookup.js';
import { OutboundRefusedError, OutboundSchemeError, OutboundTooManyRedirectsError } from './outbound-error.js';
import { createSafeFetch } from './safe-fetch.js';

interface Seen {
  readonly url: string;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}
const closers: (() => void)[] = [];
after(() => {
  for (const close of closers) close();
});

/** A server on `host` answering with `handler` (default: 200 "ok"), recording what it is sent. */
async function serve(handler?: RequestListener, host = '127.0.0.1') {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ url: req.url ?? '', method: req.method ?? '', headers: req.headers, body });
    if (handler) handler(req, res);
    else res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  closers.push(() => server.close());
  const { port } = server.address() as AddressInfo;
  return { port, seen, origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

/** A resolver answering from a table: names that look public, resolving where a test wants. */
function resolverOf(table: Record<string, string[]>, calls: string[] = []): Resolver {
  return async (name) => {
    calls.push(name);
    return (table[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const refused = (message: RegExp) => (err: unknown) => err instanceof OutboundRefusedError && message.test(err.message);

test('a server on 127.0.0.1 is refused by default, before anything is sent, and the refusal says how to allow it', async () => {
  const s = await serve();
  await assert.rejects(
    createSafeFetch({ allowedHosts: [] })(`${s.origin}/v1/models`),
    refused(
      new RegExp(
        `^refused: 127\\.0\\.0\\.1 is a loopback address; allow it with WEFT_OUTBOUND_ALLOWED_HOSTS=127\\.0\\.0\\.1:${s.port}$`,
      ),
    ),
  );
  assert.equal(s.seen.length, 0);
});

test('listed as host or as host:port it is allowed; on another port it is not', async () => {
  const s = await serve();
  for (const entry of ['127.0.0.1', `127.0.0.1:${s.port}`]) {
    const res = await createSafeFetch({ allowedHosts: [entry] })(`${s.origin}/x`);
    assert.deepEqual([res.status, await res.text()], [200, 'ok'], entry);
  }
  await assert.rejects(
    createSafeFetch({ allowedHosts: [`127.0.0.1:${s.port + 1}`] })(`${s.origin}/x`),
    OutboundRefusedError,
  );
  assert.equal(s.seen.length, 2);
});

test('a name resolving to loopback is refused: localhost, and a public-looking name', async () => {
  const s = await serve();
  await assert.rejects(
    createSafeFetch({ allowedHosts: [] })(`http://localhost:${s.port}/`),
    refused(
      /^refused: localhost resolves to 127\.0\.0\.1, a loopback address; allow it with WEFT_OUTBOUND_ALLOWED_HOSTS=localhost:\d+$/,
    ),
  );
  const resolver = resolverOf({ 'api.example.com': ['127.0.0.1'] });
  await assert.rejects(
    createSafeFetch({ allowedHosts: [], resolver })(`http://api.example.com:${s.port}/v1/chat/completions`),
    refused(/^refused: api\.example\.com resolves to 127\.0\.0\.1, a loopback address; .*=api\.example\.com:\d+$/),
  );
  assert.equal(s.seen.length, 0);
  const res = await createSafeFetch({ allowedHosts: [`localhost:${s.port}`] })(`http://localhost:${s.port}/`);
  assert.equal(await res.text(), 'ok');
  // The Host header names the URL's host, whatever the caller set.
  const named = await createSafeFetch({ allowedHosts: ['api.example.com'], resolver })(
    `http://api.example.com:${s.port}/`,
    { headers: { host: 'other.example' } },
  );
  assert.equal(await named.text(), 'ok');
  assert.equal(s.seen.at(-1)?.headers.host, `api.example.com:${s.port}`);
});

test('the name is resolved once and the socket connects to an address that passed, never another', async () => {
  const s = await serve();
  const calls: string[] = [];
  // 10.0.0.5 fails the policy and would never answer here: only 127.0.0.1 (listed by address) is tried.
  const resolver = resolverOf({ 'llm.example.com': ['10.0.0.5', '127.0.0.1'] }, calls);
  const safeFetch = createSafeFetch({
    allowedHosts: [`127.0.0.1:${s.port}`],
    resolver,
    limits: { connectTimeoutMs: 2000 },
  });
  const res = await safeFetch(`http://llm.example.com:${s.port}/`);
  assert.equal(await res.text(), 'ok');
  assert.deepEqual(calls, ['llm.example.com']);
  // Every address refused: the first one is named.
  const none = createSafeFetch({ allowedHosts: [], resolver })(`http://llm.example.com:${s.port}/`);
  await assert.rejects(none, refused(/resolves to 10\.0\.0\.5, a private address/));
  const missing = createSafeFetch({ allowedHosts: [], resolver })('http://nowhere.example.com/');
  await assert.rejects(missing, { code: 'ENOTFOUND' });
});

test('cloud metadata addresses: refused by default, and still refused through a listed name', async () => {
  const safeFetch = createSafeFetch({
    allowedHosts: ['metadata.google.internal', 'evil.example'],
    resolver: resolverOf({ 'metadata.google.internal': ['169.254.169.254'], 'evil.example': ['fd00:ec2::254'] }),
  });
  await assert.rejects(safeFetch('http://169.254.169.254/latest/meta-data/'), refused(/a cloud metadata address/));
  await assert.rejects(
    safeFetch('http://metadata.google.internal/computeMetadata/v1/'),
    refused(/only its address allows it: WEFT_OUTBOUND_ALLOWED_HOSTS=169\.254\.169\.254:80$/),
  );
  await assert.rejects(safeFetch('http://evil.example/'), refused(/fd00:ec2::254, a cloud metadata address/));
  await assert.rejects(safeFetch('http://[::ffff:a9fe:a9fe]/'), refused(/a cloud metadata address/));
});

test('IPv6 loopback and IPv4-mapped IPv6 are refused unless listed', async () => {
  const v6 = await serve(undefined, '::1');
  await assert.rejects(
    createSafeFetch({ allowedHosts: [] })(`${v6.origin}/`),
    refused(
      new RegExp(
        `^refused: ::1 is a loopback address; allow it with WEFT_OUTBOUND_ALLOWED_HOSTS=\\[::1\\]:${v6.port}$`,
      ),
    ),
  );
  const ok6 = await createSafeFetch({ allowedHosts: [`[::1]:${v6.port}`] })(`${v6.origin}/`);
  assert.equal(await ok6.text(), 'ok');

  const v4 = await serve();
  const mapped = `http://[::ffff:127.0.0.1]:${v4.port}/`;
  await assert.rejects(createSafeFetch({ allowedHosts: [] })(mapped), refused(/loopback address/));
  const viaName = createSafeFetch({ allowedHosts: [], resolver: resolverOf({ 'x.example': ['::ffff:127.0.0.1'] }) });
  await assert.rejects(
    viaName(`http://x.example:${v4.port}/`),
    refused(/resolves to 127\.0\.0\.1, a loopback address/),
  );
  // Listing the IPv4 address allows its mapped spelling: the same socket address.
  const ok4 = await createSafeFetch({ allowedHosts: [`127.0.0.1:${v4.port}`] })(mapped);
  assert.equal(await ok4.text(), 'ok');
});

test('every redirect is checked again: from an allowed host to a refused address is refused', async () => {
  const target = await serve();
  const hops = ['http://10.0.0.5/', 'http://169.254.169.254/latest/meta-data/', `${target.origin}/`];
  for (const location of hops) {
    const from = await serve((_req, res) => res.writeHead(302, { location }).end());
    const safeFetch = createSafeFetch({ allowedHosts: [`127.0.0.1:${from.port}`] });
    await assert.rejects(safeFetch(`${from.origin}/start`), OutboundRefusedError, location);
    assert.equal(from.seen.length, 1);
  }
  assert.equal(target.seen.length, 0);
});

test('redirects between allowed hosts are followed; keys stay on their origin; the hops are capped', async () => {
  const target = await serve();
  const from = await serve((req, res) => {
    const to = req.url === '/same' ? '/final' : req.url === '/loop' ? '/loop' : `http://localhost:${target.port}/final`;
    if (req.url === '/final') res.end('same origin');
    else res.writeHead(req.url === '/same' ? 307 : 302, { location: to }).end();
  });
  const safeFetch = createSafeFetch({
    allowedHosts: [`127.0.0.1:${from.port}`, `localhost:${target.port}`],
    limits: { maxRedirects: 3 },
  });
  const init = { method: 'POST', body: '{"a":1}', headers: { authorization: 'Bearer sk-x', 'x-api-key': 'k' } };
  const same = await safeFetch(`${from.origin}/same`, init);
  assert.deepEqual([await same.text(), same.redirected, same.url], ['same origin', true, `${from.origin}/final`]);
  const kept = from.seen.at(-1)!;
  assert.deepEqual([kept.method, kept.body, kept.headers.authorization], ['POST', '{"a":1}', 'Bearer sk-x']);

  const off = await safeFetch(`${from.origin}/off`, init);
  assert.equal(await off.text(), 'ok');
  const landed = target.seen.at(-1)!;
  assert.deepEqual(
    [landed.method, landed.headers.authorization, landed.headers['x-api-key']],
    ['GET', undefined, undefined],
  );

  const before = from.seen.length;
  await assert.rejects(safeFetch(`${from.origin}/loop`), (err: unknown) => {
    assert.ok(err instanceof OutboundTooManyRedirectsError);
    assert.equal(err.message, `too many redirects: 127.0.0.1:${from.port} redirected more than 3 times`);
    return err.status === 503;
  });
  assert.equal(from.seen.length - before, 4);
  const manual = await safeFetch(`${from.origin}/loop`, { redirect: 'manual' });
  assert.deepEqual([manual.status, manual.headers.get('location')], [302, '/loop']);
});

test('only http and https: other schemes are refused, given or as a redirect', async () => {
  const safeFetch = createSafeFetch({ allowedHosts: ['127.0.0.1'] });
  await assert.rejects(safeFetch('file:///etc/passwd'), OutboundSchemeError);
  const from = await serve((_req, res) => res.writeHead(301, { location: 'file:///etc/passwd' }).end());
  await assert.rejects(safeFetch(`${from.origin}/`), OutboundSchemeError);
});
