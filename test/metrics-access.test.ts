// Who may read GET /metrics: anyone on the loopback interface (unless a proxy forwards for
// someone else); from elsewhere, once keys exist, an admin key or the metrics token, else
// 401 (no key, a wrong one) or 403 (a key without an admin role). Open mode is open.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, startTestApp, type TestApp } from './helpers/test-app.js';

const TOKEN = 'scrape-secret-token';
const REMOTE = '203.0.113.7';

async function metrics(t: TestApp, opts: { from?: string; headers?: Record<string, string>; url?: string } = {}) {
  const res = await t.app.inject({
    method: 'GET',
    url: opts.url ?? '/metrics',
    headers: opts.headers ?? {},
    remoteAddress: opts.from ?? '127.0.0.1',
  });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.body };
}

describe('keyed server', () => {
  let t: TestApp;
  let admin = '';
  let writer = '';
  before(async () => {
    t = await startTestApp({
      metricsToken: TOKEN,
      keys: [
        { user: 'ada', entity: 'acme', role: 'admin' },
        { user: 'wes', entity: 'acme', role: 'writer' },
      ],
    });
    [admin, writer] = t.keys.map((k) => k.key) as [string, string];
  });
  after(async () => t.close());

  test('open to loopback peers, IPv4 and IPv6, without a key', async () => {
    for (const from of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const r = await metrics(t, { from });
      assert.equal(r.status, 200, `${from}: ${r.body}`);
      assert.match(r.type, /^text\/plain; version=0\.0\.4/);
      assert.match(r.body, /^# HELP /m);
    }
  });

  test('a loopback peer forwarding for someone else is not local', async () => {
    assert.equal((await metrics(t, { headers: { 'x-forwarded-for': REMOTE } })).status, 401);
    assert.equal((await metrics(t, { headers: { forwarded: `for=${REMOTE}` } })).status, 401);
    assert.equal((await metrics(t, { headers: { 'x-forwarded-for': REMOTE, ...bearer(TOKEN) } })).status, 200);
  });

  test('from elsewhere: 401 without a key or with a wrong one, 403 for a non-admin key', async () => {
    const none = await metrics(t, { from: REMOTE });
    assert.equal(none.status, 401, none.body);
    assert.equal(JSON.parse(none.body).error_code, 'UNAUTHORIZED');
    assert.equal((await metrics(t, { from: REMOTE, headers: bearer('weft_not-a-key') })).status, 401);
    const notAdmin = await metrics(t, { from: REMOTE, headers: bearer(writer) });
    assert.equal(notAdmin.status, 403, notAdmin.body);
    assert.equal(JSON.parse(notAdmin.body).error_code, 'FORBIDDEN');
    assert.ok(!notAdmin.body.includes('weft_http_requests_total'), 'no metrics leak in the refusal');
  });

  test('from elsewhere: allowed with an admin key, or the token as Bearer or Basic', async () => {
    assert.equal((await metrics(t, { from: REMOTE, headers: bearer(admin) })).status, 200);
    assert.equal((await metrics(t, { from: REMOTE, headers: bearer(TOKEN) })).status, 200);
    const basic = `Basic ${Buffer.from(`api:${TOKEN}`).toString('base64')}`;
    assert.equal((await metrics(t, { from: REMOTE, headers: { authorization: basic } })).status, 200);
    assert.equal((await metrics(t, { from: REMOTE, headers: bearer(`${TOKEN}x`) })).status, 401);
  });

  test('the token opens /metrics only, not the API', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/calls/query_stats',
      payload: { project_id: 'acme/p' },
      headers: bearer(TOKEN),
      remoteAddress: '127.0.0.1',
    });
    assert.equal(r.statusCode, 401);
  });

  test('served at the root only, and listed in the OpenAPI document as text/plain', async () => {
    assert.equal((await metrics(t, { url: '/traces/metrics' })).status, 404);
    const doc = JSON.parse((await metrics(t, { url: '/openapi.json' })).body);
    assert.deepEqual(Object.keys(doc.paths['/metrics'].get.responses['200'].content), ['text/plain']);
  });
});

test('without a token, a remote scraper needs an admin key', async () => {
  const t = await startTestApp({ keys: [{ user: 'ada', entity: 'acme', role: 'admin' }] });
  try {
    assert.equal((await metrics(t, { from: REMOTE, headers: bearer(TOKEN) })).status, 401);
    assert.equal((await metrics(t, { from: REMOTE, headers: bearer(t.keys[0]!.key) })).status, 200);
  } finally {
    await t.close();
  }
});

test('open mode (no keys) is open from anywhere, as every route is', async () => {
  const t = await startTestApp();
  try {
    assert.equal((await metrics(t, { from: REMOTE })).status, 200);
  } finally {
    await t.close();
  }
});

test('over a real socket on 127.0.0.1: a keyless scrape of a keyed server is answered', async () => {
  const t = await startTestApp({ keys: [{ user: 'ada', entity: 'acme', role: 'admin' }] });
  try {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const r = await fetch(`${address}/metrics`);
    assert.equal(r.status, 200);
    assert.match(await r.text(), /weft_http_requests_total/);
    assert.equal(
      (
        await fetch(`${address}/calls/query_stats`, {
          method: 'POST',
          body: '{"project_id":"acme/p"}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
      401,
    );
  } finally {
    await t.close();
  }
});
