// Keys and access through HTTP: both header forms, 401s, the role matrix, entity- and
// project-scoped keys, cross-project requests, wb_user_id from the key's user.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, bearer, type TestApp, type Reply } from './helpers/test-app.js';
import { start, newId } from './helpers/calls.js';
import { ROUTES } from '../src/api/routes.js';
import { adminRoutes } from '../src/api/admin.js';

let t: TestApp;
// alice admin / bob writer / carol reader on entity acme; dave writer on project other/p1 only.
let alice: string, bob: string, carol: string, dave: string;
let erin: string[];
before(async () => {
  t = await startTestApp({
    keys: [
      { user: 'alice', entity: 'acme', role: 'admin' },
      { user: 'bob', entity: 'acme', role: 'writer' },
      { user: 'carol', entity: 'acme', role: 'reader' },
      { user: 'dave', entity: 'other', role: 'writer', project: 'p1' },
      // erin: several roles, one of them replaced by a later grant on the same entity.
      { user: 'erin', entity: 'acme', role: 'writer' },
      { user: 'erin', entity: 'other', role: 'reader', project: 'p2' },
      { user: 'erin', entity: 'acme', role: 'reader' },
    ],
  });
  [alice, bob, carol, dave] = t.keys.map((k) => k.key) as [string, string, string, string];
  erin = t.keys.slice(4).map((k) => k.key);
});
after(async () => {
  await t.close();
});

const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}` });
const callStart = (key: string, project: string, extra: Record<string, unknown> = {}) =>
  t.post('/call/start', { start: { ...start({ project_id: project }), ...extra } }, bearer(key));
const stream = async (key: string, project: string) => {
  const r = await t.post('/calls/stream_query', { project_id: project }, bearer(key));
  return {
    ...r,
    calls:
      r.status === 200
        ? r.text
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l))
        : [],
  };
};
function assert401(r: Reply) {
  assert.equal(r.status, 401, r.text);
  assert.equal(r.headers['www-authenticate'], 'Basic realm="weft"');
  assert.equal(r.body.error_code, 'UNAUTHORIZED');
}
function assert403(r: Reply) {
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error_code, 'FORBIDDEN');
}

test('every route declares its access', () => {
  for (const r of [...ROUTES, ...Object.values(adminRoutes)])
    assert.ok(r.access, `${r.method} ${r.path} has no access`);
  for (const path of ['/health', '/server_info', '/openapi.json'])
    assert.equal(ROUTES.find((r) => r.path === path)?.access, 'open');
});

describe('keys in headers', () => {
  test('Basic base64("api:<key>") and Bearer <key> are both accepted', async () => {
    assert.equal((await t.post('/calls/query_stats', { project_id: 'acme/p1' }, basic(carol))).status, 200);
    assert.equal((await t.post('/calls/query_stats', { project_id: 'acme/p1' }, bearer(carol))).status, 200);
  });

  test('a missing, malformed or wrong key is 401 with WWW-Authenticate, and nothing is written', async () => {
    const s = start({ project_id: 'acme/p1' });
    assert401(await t.post('/call/start', { start: s }));
    assert401(await t.post('/call/start', { start: s }, bearer('weft_not-a-key')));
    assert401(await t.post('/call/start', { start: s }, basic('weft_not-a-key')));
    assert401(await t.post('/call/start', { start: s }, { authorization: 'Basic !!!' }));
    assert401(await t.post('/call/start', { start: s }, { authorization: `Token ${bob}` }));
    assert401(await t.get('/tags?project_id=acme/p1'));
    assert.equal((await t.post('/call/read', { project_id: 'acme/p1', id: s.id }, bearer(alice))).body.call, null);
  });

  test('/health, /server_info and /openapi.json stay open', async () => {
    for (const path of ['/health', '/server_info', '/openapi.json'])
      assert.equal((await t.get(path)).status, 200, path);
  });
});

describe('roles', () => {
  test('readers read, writers and admins write', async () => {
    for (const [key, canWrite] of [
      [carol, false],
      [bob, true],
      [alice, true],
    ] as const) {
      const w = await callStart(key, 'acme/p1');
      if (canWrite) assert.equal(w.status, 200, w.text);
      else assert403(w);
      const obj = await t.post(
        '/obj/create',
        { obj: { project_id: 'acme/p1', object_id: 'thing', val: { a: 1 } } },
        bearer(key),
      );
      if (canWrite) assert.equal(obj.status, 200, obj.text);
      else assert403(obj);
      assert.equal((await stream(key, 'acme/p1')).status, 200);
      assert.equal((await t.post('/objs/query', { project_id: 'acme/p1' }, bearer(key))).status, 200);
      assert.equal((await t.get('/tags?project_id=acme/p1', bearer(key))).status, 200);
    }
  });

  test('a project-scoped key reaches only its project', async () => {
    assert.equal((await callStart(dave, 'other/p1')).status, 200);
    assert.equal((await stream(dave, 'other/p1')).status, 200);
    assert403(await callStart(dave, 'other/p2'));
    assert403(await t.post('/calls/stream_query', { project_id: 'other/p2' }, bearer(dave)));
    assert403(await callStart(dave, 'acme/p1'));
    assert403(await t.get('/aliases?project_id=acme/p1', bearer(dave)));
  });

  test('a user with roles on several entities holds each of them, the newest role of an entity winning, with every key of theirs', async () => {
    assert.equal(erin.length, 3);
    for (const key of erin) {
      assert.equal((await stream(key, 'acme/p1')).status, 200);
      assert403(await callStart(key, 'acme/p1'));
      assert.equal((await stream(key, 'other/p2')).status, 200);
      assert403(await callStart(key, 'other/p2'));
      assert403(await t.post('/calls/stream_query', { project_id: 'other/p1' }, bearer(key)));
      assert403(await t.post('/calls/stream_query', { project_id: 'third/p1' }, bearer(key)));
    }
  });

  test('an entity-scoped key reaches every project of its entity and no other entity', async () => {
    assert.equal((await callStart(bob, 'acme/anything')).status, 200);
    assert403(await callStart(bob, 'other/p1'));
    assert403(await t.post('/calls/stream_query', { project_id: 'other/p1' }, bearer(alice)));
  });
});

describe('cross-project requests', () => {
  test('a batch with one item in a project the key may not write is 403 and writes nothing', async () => {
    const mine = start({ project_id: 'acme/p1' });
    const theirs = start({ project_id: 'other/p1' });
    const r = await t.post(
      '/call/upsert_batch',
      {
        batch: [
          { mode: 'start', req: { start: mine } },
          { mode: 'start', req: { start: theirs } },
        ],
      },
      bearer(bob),
    );
    assert403(r);
    assert.equal((await t.post('/call/read', { project_id: 'acme/p1', id: mine.id }, bearer(bob))).body.call, null);
    assert.equal((await t.post('/call/read', { project_id: 'other/p1', id: theirs.id }, bearer(dave))).body.call, null);
  });

  test('reads of another project are 403 and leak nothing', async () => {
    const s = start({ project_id: 'other/p1', inputs: { secret: 'dave-only' } });
    assert.equal((await t.post('/call/start', { start: s }, bearer(dave))).status, 200);
    for (const [path, body] of [
      ['/call/read', { project_id: 'other/p1', id: s.id }],
      ['/calls/query', { project_id: 'other/p1' }],
      ['/calls/query_stats', { project_id: 'other/p1' }],
      ['/feedback/query', { project_id: 'other/p1' }],
    ] as const) {
      const r = await t.post(path, body, bearer(bob));
      assert403(r);
      assert.ok(!r.text.includes('dave-only') && !r.text.includes(s.id), r.text);
    }
  });

  test('/refs/read_batch refs must lie in projects the key may read', async () => {
    const created = await t.post(
      '/obj/create',
      { obj: { project_id: 'other/p1', object_id: 'secret', val: { s: 'dave-only' } } },
      bearer(dave),
    );
    assert.equal(created.status, 200, created.text);
    const ref = `weave:///other/p1/object/secret:${created.body.digest}`;
    assert.equal((await t.post('/refs/read_batch', { refs: [ref] }, bearer(dave))).body.vals[0].s, 'dave-only');
    const mine = await t.post(
      '/obj/create',
      { obj: { project_id: 'acme/p1', object_id: 'mine', val: 1 } },
      bearer(bob),
    );
    const r = await t.post(
      '/refs/read_batch',
      { refs: [`weave:///acme/p1/object/mine:${mine.body.digest}`, ref] },
      bearer(bob),
    );
    assert403(r);
    assert.ok(!r.text.includes('dave-only'));
  });

  test("feedback refs must lie in the request's project", async () => {
    const r = await t.post(
      '/feedback/create',
      {
        project_id: 'acme/p1',
        weave_ref: `weave:///other/p1/call/${newId()}`,
        feedback_type: 'note',
        payload: { note: 'x' },
      },
      bearer(bob),
    );
    assert.equal(r.status, 400, r.text);
  });

  test('a multipart upload to a project the key may not write is 403 and stores nothing', async () => {
    const upload = async (key: string, project: string) => {
      const fd = new FormData();
      fd.append('project_id', project);
      fd.append('file', new Blob([Buffer.from('hello')]), 'blob');
      const req = new Request('http://x/file/create', { method: 'POST', body: fd });
      const payload = Buffer.from(await req.arrayBuffer());
      const res = await t.app.inject({
        method: 'POST',
        url: '/file/create',
        payload,
        headers: { ...bearer(key), 'content-type': req.headers.get('content-type')! },
      });
      return { status: res.statusCode, body: JSON.parse(res.body), text: res.body, headers: res.headers } as Reply;
    };
    assert403(await upload(carol, 'acme/p1'));
    assert403(await upload(dave, 'acme/p1'));
    const ok = await upload(bob, 'acme/p1');
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await t.post('/files/stats', { project_id: 'acme/p1' }, bearer(carol))).status, 200);
  });
});

describe('identity', () => {
  test("wb_user_id comes from the key's user even when the client sends one; wb_username from the user", async () => {
    const s = start({ project_id: 'acme/p1' });
    assert.equal((await t.post('/call/start', { start: { ...s, wb_user_id: 'mallory' } }, bearer(bob))).status, 200);
    const bobId = t.keys[1]!.user_id;
    for (const key of [bob, alice]) {
      const call = (await t.post('/call/read', { project_id: 'acme/p1', id: s.id }, bearer(key))).body.call;
      assert.equal(call.wb_user_id, bobId);
      assert.equal(call.wb_username, 'bob');
    }
    const listed = (await stream(carol, 'acme/p1')).calls.find((c) => c.id === s.id);
    assert.equal(listed.wb_username, 'bob');
    const fb = await t.post(
      '/feedback/create',
      {
        project_id: 'acme/p1',
        weave_ref: `weave:///acme/p1/call/${s.id}`,
        feedback_type: 'note',
        payload: { note: 'x' },
        wb_user_id: 'mallory',
      },
      bearer(alice),
    );
    assert.equal(fb.status, 200, fb.text);
    assert.equal(fb.body.wb_user_id, t.keys[0]!.user_id);
  });
});
