// The admin API (/admin/keys/*): admin role only, scoped to the entities the admin holds;
// keys are shown once and listed without their secret; revoked keys stop working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, bearer, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let alice: string, carol: string, dave: string;
before(async () => {
  t = await startTestApp({
    keys: [
      { user: 'alice', entity: 'acme', role: 'admin' },
      { user: 'carol', entity: 'acme', role: 'reader' },
      { user: 'dave', entity: 'other', role: 'admin' },
    ],
  });
  [alice, carol, dave] = t.keys.map((k) => k.key) as [string, string, string];
});
after(async () => {
  await t.close();
});

test('readers and writers get 403, no key 401', async () => {
  assert.equal((await t.post('/admin/keys/list', {}, bearer(carol))).status, 403);
  assert.equal(
    (await t.post('/admin/keys/create', { user: 'x', entity: 'acme', role: 'reader' }, bearer(carol))).status,
    403,
  );
  assert.equal((await t.post('/admin/keys/list', {})).status, 401);
});

test('an admin creates a key for its entity; the key works at once; list never shows it', async () => {
  const r = await t.post(
    '/admin/keys/create',
    { user: 'erin', entity: 'acme', role: 'writer', project: 'p9' },
    bearer(alice),
  );
  assert.equal(r.status, 200, r.text);
  assert.match(r.body.key, /^weft_[A-Za-z0-9_-]{43}$/);
  assert.equal(
    (
      await t.post(
        '/call/start',
        {
          start: {
            project_id: 'acme/p9',
            op_name: 'o',
            started_at: '2026-01-01T00:00:00Z',
            attributes: {},
            inputs: {},
          },
        },
        bearer(r.body.key),
      )
    ).status,
    200,
  );
  assert.equal((await t.post('/calls/query_stats', { project_id: 'acme/p1' }, bearer(r.body.key))).status, 403);
  const list = await t.post('/admin/keys/list', {}, bearer(alice));
  assert.equal(list.status, 200);
  assert.ok(!list.text.includes(r.body.key) && !list.text.includes(alice), 'list leaks a key');
  const users = list.body.keys.map((k: any) => k.user).sort();
  assert.deepEqual(users, ['alice', 'carol', 'erin'], 'an admin sees the keys of its entity only');
  const erin = list.body.keys.find((k: any) => k.id === r.body.id);
  assert.deepEqual(erin.roles, [{ entity: 'acme', project: 'p9', role: 'writer' }]);
  assert.equal(erin.revoked_at, null);
});

test('an admin may not create keys for, list or revoke keys of another entity', async () => {
  assert.equal(
    (await t.post('/admin/keys/create', { user: 'x', entity: 'other', role: 'admin' }, bearer(alice))).status,
    403,
  );
  const daveKey = (await t.post('/admin/keys/list', {}, bearer(dave))).body.keys.find((k: any) => k.user === 'dave');
  assert.equal((await t.post('/admin/keys/revoke', { id: daveKey.id }, bearer(alice))).status, 404);
  assert.equal((await t.post('/calls/query_stats', { project_id: 'other/p' }, bearer(dave))).status, 200);
});

test('a revoked key is 401; revoking again is 404', async () => {
  const r = await t.post('/admin/keys/create', { user: 'frank', entity: 'acme', role: 'reader' }, bearer(alice));
  assert.equal((await t.post('/calls/query_stats', { project_id: 'acme/p1' }, bearer(r.body.key))).status, 200);
  const rev = await t.post('/admin/keys/revoke', { id: r.body.id }, bearer(alice));
  assert.equal(rev.status, 200, rev.text);
  const denied = await t.post('/calls/query_stats', { project_id: 'acme/p1' }, bearer(r.body.key));
  assert.equal(denied.status, 401);
  assert.equal(denied.headers['www-authenticate'], 'Basic realm="weft"');
  assert.equal((await t.post('/admin/keys/revoke', { id: r.body.id }, bearer(alice))).status, 404);
  const listed = (await t.post('/admin/keys/list', {}, bearer(alice))).body.keys.find((k: any) => k.id === r.body.id);
  assert.equal(typeof listed.revoked_at, 'string');
});

test('open mode: the first key created through the API makes every request need a key', async () => {
  const open = await startTestApp();
  try {
    assert.equal((await open.post('/calls/query_stats', { project_id: 'a/b' })).status, 200);
    const r = await open.post('/admin/keys/create', { user: 'root', entity: 'a', role: 'admin' });
    assert.equal(r.status, 200, r.text);
    assert.equal((await open.post('/calls/query_stats', { project_id: 'a/b' })).status, 401);
    assert.equal((await open.post('/calls/query_stats', { project_id: 'a/b' }, bearer(r.body.key))).status, 200);
    assert.equal((await open.get('/health')).status, 200);
  } finally {
    await open.close();
  }
});
