// An entity admin manages only users whose every role lies in entities it administers:
// naming any other existing user is 403 and writes nothing; such users' keys can be neither
// listed nor revoked by it. Regression tests for the cross-entity key takeover (issue 8).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, bearer, type TestApp } from './helpers/test-app.js';
import { cli, createdKey, serve, tempDirs } from './helpers/weft-process.js';
import { listKeys } from '../src/service/auth/auth-keys.js';
import { OPEN_ACCESS } from '../src/service/auth/auth-access.js';

let t: TestApp;
// victim: alice writer, vadmin admin, pat writer on victim/p1 only.
// attacker: madmin admin, ada writer on attacker/p1 only. both: boss admin of victim and attacker.
let alice: string, vadmin: string, madmin: string, boss: string;
before(async () => {
  t = await startTestApp({
    keys: [
      { user: 'alice', entity: 'victim', role: 'writer' },
      { user: 'vadmin', entity: 'victim', role: 'admin' },
      { user: 'pat', entity: 'victim', role: 'writer', project: 'p1' },
      { user: 'madmin', entity: 'attacker', role: 'admin' },
      { user: 'ada', entity: 'attacker', role: 'writer', project: 'p1' },
      { user: 'boss', entity: 'victim', role: 'admin' },
      { user: 'boss', entity: 'attacker', role: 'admin' },
    ],
  });
  [alice, vadmin, , madmin, , , boss] = t.keys.map((k) => k.key) as string[] as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
});
after(async () => {
  await t.close();
});

/** Every key and role as the server operator sees them (the CLI's view). */
const everything = async () => JSON.stringify(await listKeys(t.store.auth, OPEN_ACCESS));

async function refused(caller: string, body: Record<string, unknown>) {
  const before = await everything();
  const r = await t.post('/admin/keys/create', body, bearer(caller));
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error_code, 'FORBIDDEN');
  assert.match(r.body.reason, new RegExp(`User ${String(body.user)} holds roles in entities you do not administer`));
  assert.equal(await everything(), before, 'a refused create wrote nothing');
}

describe('create', () => {
  test('an admin of another entity cannot give a victim user a key (the takeover repro)', async () => {
    await refused(madmin, { user: 'alice', entity: 'attacker', role: 'reader' });
    // alice's own key still reaches victim, and nothing of attacker's.
    assert.equal((await t.post('/calls/query_stats', { project_id: 'victim/p' }, bearer(alice))).status, 200);
    assert.equal((await t.post('/calls/query_stats', { project_id: 'attacker/p' }, bearer(alice))).status, 403);
  });

  test("nor a key for the victim entity's admin, with any role or project", async () => {
    await refused(madmin, { user: 'vadmin', entity: 'attacker', role: 'admin' });
    await refused(madmin, { user: 'vadmin', entity: 'attacker', role: 'reader', project: 'p1' });
    await refused(madmin, { user: 'pat', entity: 'attacker', role: 'writer' });
    // A user holding roles in both entities belongs to neither admin alone.
    await refused(madmin, { user: 'boss', entity: 'attacker', role: 'reader' });
    await refused(vadmin, { user: 'boss', entity: 'victim', role: 'reader' });
  });

  test("the victim's admin still sees and manages every victim user", async () => {
    const users = (await t.post('/admin/keys/list', {}, bearer(vadmin))).body.keys.map((k: { user: string }) => k.user);
    assert.deepEqual([...new Set(users)].sort(), ['alice', 'pat', 'vadmin']);
    const r = await t.post(
      '/admin/keys/create',
      { user: 'pat', entity: 'victim', role: 'reader', project: 'p2' },
      bearer(vadmin),
    );
    assert.equal(r.status, 200, r.text);
  });

  test('an admin manages its own users, project-scoped ones included, and new users', async () => {
    const more = await t.post(
      '/admin/keys/create',
      { user: 'ada', entity: 'attacker', role: 'reader', project: 'p2' },
      bearer(madmin),
    );
    assert.equal(more.status, 200, more.text);
    const fresh = await t.post(
      '/admin/keys/create',
      { user: 'newbie', entity: 'attacker', role: 'writer' },
      bearer(madmin),
    );
    assert.equal(fresh.status, 200, fresh.text);
    // Once newbie is attacker's, victim's admin cannot adopt it.
    await refused(vadmin, { user: 'newbie', entity: 'victim', role: 'writer' });
  });

  test('an admin of every entity a user touches (or the CLI) manages it', async () => {
    const r = await t.post('/admin/keys/create', { user: 'alice', entity: 'attacker', role: 'reader' }, bearer(boss));
    assert.equal(r.status, 200, r.text);
    const list = (await t.post('/admin/keys/list', {}, bearer(vadmin))).body.keys.map((k: { user: string }) => k.user);
    assert.ok(!list.includes('alice'), "alice now has a role outside victim: victim's admin alone no longer lists her");
  });
});

describe('list and revoke', () => {
  test("list shows only users inside the admin's entities", async () => {
    const keys = (await t.post('/admin/keys/list', {}, bearer(madmin))).body.keys as { user: string }[];
    const users = new Set(keys.map((k) => k.user));
    for (const u of ['alice', 'vadmin', 'pat', 'boss']) assert.ok(!users.has(u), `attacker's admin lists ${u}`);
    assert.ok(users.has('madmin') && users.has('ada'));
  });

  test("revoking a key of a user outside the admin's entities is 404 and the key keeps working", async () => {
    const all = await listKeys(t.store.auth, OPEN_ACCESS);
    const vadminKey = all.find((k) => k.user === 'vadmin')!;
    const r = await t.post('/admin/keys/revoke', { id: vadminKey.id }, bearer(madmin));
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.error_code, 'NOT_FOUND');
    assert.equal((await t.post('/admin/keys/list', {}, bearer(vadmin))).status, 200, "vadmin's key still works");
    const bossKey = all.find((k) => k.user === 'boss')!;
    assert.equal((await t.post('/admin/keys/revoke', { id: bossKey.id }, bearer(vadmin))).status, 404);
  });
});

test('CLI: keys made with weft keys, the takeover attempted over HTTP on a real server, refused', async () => {
  const dirs = tempDirs('weft-admin-scope-');
  try {
    const dir = dirs.make();
    assert.equal(cli(dir, 'create', '--user', 'alice', '--entity', 'victim', '--role', 'writer').code, 0);
    const km = createdKey(cli(dir, 'create', '--user', 'madmin', '--entity', 'attacker', '--role', 'admin').out);
    const before = cli(dir, 'list', '--json').out;
    const s = await serve(['--data-dir', dir]);
    try {
      assert.ok(s.port, s.stderr);
      const r = await fetch(`http://127.0.0.1:${s.port}/admin/keys/create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`api:${km}`).toString('base64')}`,
        },
        body: JSON.stringify({ user: 'alice', entity: 'attacker', role: 'reader' }),
      });
      assert.equal(r.status, 403);
      assert.match(
        ((await r.json()) as { reason: string }).reason,
        /User alice holds roles in entities you do not administer/,
      );
    } finally {
      s.stop();
    }
    assert.equal(cli(dir, 'list', '--json').out, before, 'nothing was written');
    // The CLI acts for the operator: it may give alice a second entity.
    assert.equal(cli(dir, 'create', '--user', 'alice', '--entity', 'attacker', '--role', 'reader').code, 0);
    const alice = (JSON.parse(cli(dir, 'list', '--json').out) as { user: string; roles: { entity: string }[] }[]).find(
      (k) => k.user === 'alice',
    )!;
    assert.deepEqual(alice.roles.map((g) => g.entity).sort(), ['attacker', 'victim']);
  } finally {
    dirs.removeAll();
  }
});
