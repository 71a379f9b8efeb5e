// Open mode (no keys) against web pages: only loopback names and addresses and those of
// WEFT_ALLOWED_HOSTS are answered (DNS rebinding), on every route; no cross-site write in any
// encoding; no CORS permission anywhere. With keys, any Host works and the key decides.
// The server process's side (startup line, the flag): open-mode-server.test.ts.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, bearer, type TestApp, type Reply } from './helpers/test-app.js';
import { start } from './helpers/calls.js';
import { fileTableCounts } from './helpers/files.js';

const SECRET = 'me/secret';
const uiDir = mkdtempSync(join(tmpdir(), 'weft-ui-'));
writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Weft</title>');
let t: TestApp;
before(async () => {
  t = await startTestApp({ allowedHosts: ['weft.example', '.corp.example', '192.168.1.20', 'fd00::5'], uiDir });
  const r = await t.post('/call/start', {
    start: start({ project_id: SECRET, inputs: { prompt: 'the secret prompt' } }),
  });
  assert.equal(r.status, 200, r.text);
});
after(async () => {
  await t.close();
  rmSync(uiDir, { recursive: true, force: true });
});

async function send(method: string, url: string, headers: Record<string, string>, payload?: string): Promise<Reply> {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  let body: any;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text: res.body };
}
const json = (body: unknown) => JSON.stringify(body);
const secretCalls = async () => (await t.post('/calls/query_stats', { project_id: SECRET })).body.count as number;

const BOUNDARY = 'weftboundary';
const FORM_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const form = (project: string, content: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${project}\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`;

describe('Host while open', () => {
  test('loopback names and addresses are answered, with or without a port', async () => {
    for (const host of [
      'localhost',
      'localhost:6345',
      'LOCALHOST:6345',
      'app.localhost:6345',
      '127.0.0.1',
      '127.0.0.1:6345',
      '127.9.8.7:1',
      '[::1]',
      '[::1]:6345',
      '[::ffff:127.0.0.1]:6345',
    ]) {
      const r = await send(
        'POST',
        '/calls/query_stats',
        { host, 'content-type': 'application/json' },
        json({ project_id: SECRET }),
      );
      assert.equal(r.status, 200, `${host}: ${r.text}`);
      assert.equal(r.body.count, 1);
    }
  });

  test('names and addresses listed in WEFT_ALLOWED_HOSTS are answered; a .domain entry covers the domain and its subdomains', async () => {
    for (const host of [
      'weft.example',
      'weft.example:8080',
      'corp.example',
      'traces.corp.example:443',
      '192.168.1.20:6345',
      '[fd00::5]:6345',
    ]) {
      const r = await send('GET', '/ui/api/projects', { host });
      assert.equal(r.status, 200, `${host}: ${r.text}`);
      assert.deepEqual(
        r.body.projects.map((p: { project_id: string }) => p.project_id),
        [SECRET],
      );
    }
  });

  test('any other Host gets a 403 naming the setting, on every route: reads, writes, the UI, /metrics, unknown paths', async () => {
    const hosts = [
      'evil.example',
      'rebind.attacker.test:6345',
      'localhost.evil.example',
      'weft.example.evil.test',
      'evilcorp.example',
      '127.0.0.1.nip.io',
      'localhost.',
      'local:host',
      '192.168.1.21:6345',
      '10.0.0.1',
      '[fd00::6]',
    ];
    const requests: [string, string, Record<string, string>, string?][] = [
      ['POST', '/calls/stream_query', { 'content-type': 'application/json' }, json({ project_id: SECRET })],
      ['POST', '/traces/calls/stream_query', { 'content-type': 'application/json' }, json({ project_id: SECRET })],
      ['GET', '/ui/api/projects', {}],
      ['POST', '/call/start', { 'content-type': 'application/json' }, json({ start: start({ project_id: SECRET }) })],
      [
        'POST',
        '/obj/create',
        { 'content-type': 'application/json' },
        json({ obj: { project_id: SECRET, object_id: 'o', val: { a: 1 } } }),
      ],
      ['POST', '/files/create', { 'content-type': FORM_TYPE }, form(SECRET, 'stolen')],
      [
        'POST',
        '/otel/v1/traces',
        { 'content-type': 'application/json', project_id: SECRET },
        json({ resourceSpans: [] }),
      ],
      ['POST', '/graphql', { 'content-type': 'application/json' }, json({ query: '{ viewer { username } }' })],
      ['GET', '/', {}],
      ['GET', '/ui/', {}],
      ['GET', '/ui/me/secret/calls', {}],
      ['GET', '/ui/assets/app.js', {}],
      ['GET', '/metrics', {}],
      ['GET', '/health', {}],
      ['GET', '/openapi.json', {}],
      ['GET', '/no/such/route', {}],
      ['OPTIONS', '/call/start', { origin: 'http://evil.example', 'access-control-request-method': 'POST' }],
    ];
    const files = await fileTableCounts(t);
    for (const host of hosts)
      for (const [method, url, headers, payload] of requests) {
        const r = await send(method, url, { ...headers, host }, payload);
        assert.equal(r.status, 403, `${host} ${method} ${url}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.equal(r.body.error_code, 'FORBIDDEN');
        assert.equal(r.body.setting, 'WEFT_ALLOWED_HOSTS');
        assert.match(r.body.reason, /WEFT_ALLOWED_HOSTS \(--allowed-hosts\)/);
        assert.doesNotMatch(r.text, /secret prompt/);
      }
    assert.equal(await secretCalls(), 1, 'no call was stored');
    assert.deepEqual(await fileTableCounts(t), files, 'no file was stored');
    assert.equal((await t.post('/objs/query', { project_id: SECRET })).body.objs.length, 0, 'no object was stored');
  });
});

describe('cross-site writes while open', () => {
  const LOCAL = { host: 'localhost:6345' };
  const refused = (r: Reply, what: string) => {
    assert.equal(r.status, 403, `${what}: ${r.text}`);
    assert.equal(r.body.error_code, 'FORBIDDEN');
    assert.match(r.body.reason, /^Cross-site write refused/);
  };

  test('form posts and text/plain posts from another site are refused, whatever their encoding, and nothing is stored', async () => {
    const files = await fileTableCounts(t);
    const call = json({ start: start({ project_id: SECRET }) });
    const cases: [string, Record<string, string>, string, string][] = [
      [
        '/files/create',
        { 'content-type': FORM_TYPE, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        form(SECRET, 'planted'),
        'multipart form, cross-site',
      ],
      [
        '/call/start',
        { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        call,
        'text/plain, cross-site',
      ],
      [
        '/call/start',
        { 'content-type': 'text/plain', origin: 'https://evil.example' },
        call,
        'text/plain with a foreign Origin only (no Sec-Fetch-Site)',
      ],
      [
        '/call/start',
        { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
        'a=1',
        'urlencoded form, Sec-Fetch-Site only',
      ],
      [
        '/call/start',
        { 'content-type': 'application/json', origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' },
        call,
        'another port of localhost (same-site)',
      ],
      [
        '/call/start',
        { 'content-type': 'application/json', origin: 'http://localhost:3000' },
        call,
        'another port of localhost, Origin only',
      ],
      [
        '/call/start',
        { 'content-type': 'text/plain', origin: 'null' },
        call,
        'Origin null (a sandboxed frame, a file: page)',
      ],
      [
        '/call/upsert_batch',
        { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        json({ batch: [] }),
        'a batch',
      ],
    ];
    for (const [url, headers, payload, what] of cases)
      refused(await send('POST', url, { ...LOCAL, ...headers }, payload), what);
    const put = await send(
      'PUT',
      '/objs/o/versions/latest/tags',
      { ...LOCAL, 'content-type': 'application/json', origin: 'https://evil.example' },
      json({ project_id: SECRET, tags: ['x'] }),
    );
    refused(put, 'a PUT');
    assert.equal(await secretCalls(), 1);
    assert.deepEqual(await fileTableCounts(t), files);
  });

  test('same-origin writes (the UI) and writes without browser headers (SDKs, curl, exporters) pass', async () => {
    const sameOrigin = { ...LOCAL, origin: 'http://localhost:6345', 'sec-fetch-site': 'same-origin' };
    const r1 = await send(
      'POST',
      '/call/start',
      { ...sameOrigin, 'content-type': 'application/json' },
      json({ start: start({ project_id: 'me/ui' }) }),
    );
    assert.equal(r1.status, 200, r1.text);
    const r2 = await send(
      'POST',
      '/files/create',
      { ...sameOrigin, 'content-type': FORM_TYPE },
      form('me/ui', 'from the UI'),
    );
    assert.equal(r2.status, 200, r2.text);
    const ip = await send(
      'POST',
      '/call/start',
      { host: '127.0.0.1:6345', origin: 'http://127.0.0.1:6345', 'content-type': 'application/json' },
      json({ start: start({ project_id: 'me/ui' }) }),
    );
    assert.equal(ip.status, 200, ip.text);
    const sdk = await send(
      'POST',
      '/call/start',
      { ...LOCAL, 'content-type': 'application/json' },
      json({ start: start({ project_id: 'me/ui' }) }),
    );
    assert.equal(sdk.status, 200, sdk.text);
    const typed = await send(
      'POST',
      '/calls/query_stats',
      { ...LOCAL, 'sec-fetch-site': 'none', 'content-type': 'application/json' },
      json({ project_id: 'me/ui' }),
    );
    assert.equal(typed.body.count, 3);
  });

  test('reads marked cross-site are answered, but without any CORS permission, so the page cannot read them', async () => {
    const r = await send('GET', '/ui/api/projects', {
      ...LOCAL,
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    assert.equal(r.status, 200);
    assert.equal(
      Object.keys(r.headers).filter((h) => h.startsWith('access-control-')).length,
      0,
      JSON.stringify(r.headers),
    );
  });

  test('no route answers a CORS preflight with permission', async () => {
    for (const url of [
      '/call/start',
      '/calls/stream_query',
      '/files/create',
      '/graphql',
      '/otel/v1/traces',
      '/ui/api/projects',
      '/health',
    ]) {
      const r = await send('OPTIONS', url, {
        ...LOCAL,
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
      assert.ok(r.status >= 400, `${url}: ${r.status}`);
      assert.deepEqual(
        Object.keys(r.headers).filter((h) => h.startsWith('access-control-')),
        [],
        url,
      );
    }
  });
});

describe('with keys', () => {
  let k: TestApp;
  let key: string;
  before(async () => {
    k = await startTestApp({ keys: [{ user: 'alice', entity: 'me', role: 'admin' }] });
    key = k.keys[0]!.key;
  });
  after(async () => {
    await k.close();
  });

  test('any Host is answered (proxies, DNS names); the key decides', async () => {
    const call = json({ start: start({ project_id: SECRET }) });
    for (const host of ['weft.internal.example', 'evil.example:443', 'localhost']) {
      const ok = await k.app.inject({
        method: 'POST',
        url: '/call/start',
        payload: call,
        headers: { host, 'content-type': 'application/json', ...bearer(key) },
      });
      assert.equal(ok.statusCode, 200, `${host}: ${ok.body}`);
      const none = await k.app.inject({
        method: 'POST',
        url: '/calls/query_stats',
        payload: json({ project_id: SECRET }),
        headers: { host, 'content-type': 'application/json' },
      });
      assert.equal(none.statusCode, 401, none.body);
    }
  });

  test('a write the browser marks cross-site is still refused; a proxy that rewrites Host does not break the same-origin UI', async () => {
    const call = json({ start: start({ project_id: SECRET }) });
    const cross = await k.app.inject({
      method: 'POST',
      url: '/call/start',
      payload: call,
      headers: {
        host: 'weft.example',
        'content-type': 'text/plain',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        ...bearer(key),
      },
    });
    assert.equal(cross.statusCode, 403, cross.body);
    assert.match(JSON.parse(cross.body).reason, /^Cross-site write refused/);
    const proxied = await k.app.inject({
      method: 'POST',
      url: '/call/start',
      payload: call,
      headers: {
        host: '127.0.0.1:6345',
        'content-type': 'application/json',
        origin: 'https://weft.example',
        'sec-fetch-site': 'same-origin',
        ...bearer(key),
      },
    });
    assert.equal(proxied.statusCode, 200, proxied.body);
  });
});
