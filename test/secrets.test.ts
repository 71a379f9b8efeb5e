// Entities' secrets through the admin API, on either engine: set, listed by name and dates,
// replaced, deleted; a value never in an answer nor in stored bytes; sealed under the data
// directory's secrets.key (mode 0600) or WEFT_SECRETS_KEY, so they survive a restart with the
// same key and do not open with another; only an admin of the entity (or open mode's local
// user) may touch them; malformed requests are 4xx saying what is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, startTestApp, type TestApp } from './helpers/test-app.js';
import { createSecretsService } from '../src/service/secrets/secret-service.js';
import { secretsKeySource } from '../src/service/secrets/secret-key.js';
import { chdbClient, clickhouseDatabase } from './helpers/clickhouse-engine.js';

const VALUE = `sk-test-${randomBytes(12).toString('hex')}`;

/** Every byte the engine stored, as text: the SQLite files, or the ClickHouse table's rows. */
async function storedBytes(t: TestApp): Promise<string> {
  const database = clickhouseDatabase(t.store);
  if (database !== null) {
    // Every version of every row of the table, every column.
    const rows = await chdbClient().query({ query: `SELECT * FROM \`${database}\`.secrets`, format: 'JSONEachRow' });
    const text = JSON.stringify(await rows.json());
    assert.match(text, /OPENAI_API_KEY/);
    return text;
  }
  return readdirSync(t.dataDir)
    .filter((f) => f.startsWith('weft.sqlite'))
    .map((f) => readFileSync(join(t.dataDir, f)).toString('latin1'))
    .join('');
}

const value = (t: TestApp, entity: string, name: string) =>
  createSecretsService({ store: t.store.secrets, key: secretsKeySource(null, t.dataDir) }).value(entity, name);

test('set, list, replace and delete; the value never answered, stored sealed, kept across a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-secrets-'));
  const apps: TestApp[] = [];
  let t = await startTestApp({ dataDir });
  try {
    const set = await t.post('/admin/secrets/set', { entity: 'acme', name: 'OPENAI_API_KEY', value: VALUE });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.text.includes(VALUE), false);
    assert.deepEqual(Object.keys(set.body).sort(), ['entity', 'name', 'updated_at']);
    const key = join(dataDir, 'secrets.key');
    assert.equal(statSync(key).mode & 0o777, 0o600);

    const list = await t.post('/admin/secrets/list', { entity: 'acme' });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.text.includes(VALUE), false);
    const [only] = list.body.secrets;
    assert.deepEqual(Object.keys(only).sort(), ['created_at', 'name', 'updated_at', 'updated_by']);
    assert.equal(only.name, 'OPENAI_API_KEY');
    assert.deepEqual((await t.post('/admin/secrets/list', { entity: 'other' })).body.secrets, []);

    assert.equal(await value(t, 'acme', 'OPENAI_API_KEY'), VALUE);
    assert.equal((await storedBytes(t)).includes(VALUE), false, 'the value is stored only sealed');

    // Replaced: the new value, the creation time kept.
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(
      (await t.post('/admin/secrets/set', { entity: 'acme', name: 'OPENAI_API_KEY', value: 'v2' })).status,
      200,
    );
    const [again] = (await t.post('/admin/secrets/list', { entity: 'acme' })).body.secrets;
    assert.equal(again.created_at, only.created_at);
    assert.ok(again.updated_at > only.updated_at);
    assert.equal(await value(t, 'acme', 'OPENAI_API_KEY'), 'v2');

    // Another server over the same data (SQLite: restarted on its directory; ClickHouse: a
    // second one on the same database) with the same key file opens it.
    if (clickhouseDatabase(t.store) === null) {
      await t.close();
      t = await startTestApp({ dataDir });
    } else {
      const first = t;
      t = await startTestApp({ dataDir, replicaOf: first });
      apps.push(first);
    }
    assert.equal(await value(t, 'acme', 'OPENAI_API_KEY'), 'v2');

    const del = await t.post('/admin/secrets/delete', { entity: 'acme', name: 'OPENAI_API_KEY' });
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { entity: 'acme', name: 'OPENAI_API_KEY', deleted: true });
    assert.deepEqual((await t.post('/admin/secrets/list', { entity: 'acme' })).body.secrets, []);
    assert.equal(await value(t, 'acme', 'OPENAI_API_KEY'), null);
    const gone = await t.post('/admin/secrets/delete', { entity: 'acme', name: 'OPENAI_API_KEY' });
    assert.equal(gone.status, 404, gone.text);
  } finally {
    for (const a of [t, ...apps]) await a.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('WEFT_SECRETS_KEY seals instead of the key file; another key does not open the value', async () => {
  const key = randomBytes(32).toString('base64');
  const t = await startTestApp({ secretsKey: key });
  try {
    assert.equal((await t.post('/admin/secrets/set', { entity: 'acme', name: 'K', value: VALUE })).status, 200);
    assert.equal(readdirSync(t.dataDir).includes('secrets.key'), false);
    const withKey = createSecretsService({ store: t.store.secrets, key: secretsKeySource(key, t.dataDir) });
    assert.equal(await withKey.value('acme', 'K'), VALUE);
    const other = createSecretsService({
      store: t.store.secrets,
      key: secretsKeySource(randomBytes(32).toString('hex'), t.dataDir),
    });
    await assert.rejects(other.value('acme', 'K'), /does not open with this server's key/);
    // Server-wide fallback from the environment, when the entity has none.
    const env = createSecretsService({
      store: t.store.secrets,
      key: () => Buffer.alloc(32),
      env: { WEFT_SECRET_X: 'e' },
    });
    assert.equal(await env.value('acme', 'X'), 'e');
    assert.equal(await env.value('acme', 'Y'), null);
    assert.throws(() => secretsKeySource('too short', t.dataDir)(), /32 bytes/);
  } finally {
    await t.close();
  }
});

test('only an admin of the entity sets, lists or deletes its secrets', async () => {
  const t = await startTestApp({
    keys: [
      { user: 'boss', entity: 'acme', role: 'admin' },
      { user: 'dev', entity: 'acme', role: 'writer' },
      { user: 'rival', entity: 'globex', role: 'admin' },
    ],
  });
  try {
    const [boss, dev, rival] = t.keys.map((k) => bearer(k.key));
    const body = { entity: 'acme', name: 'K', value: VALUE };
    assert.equal((await t.post('/admin/secrets/set', body, boss)).status, 200);
    for (const who of [dev, rival]) {
      for (const [path, b] of [
        ['/admin/secrets/set', body],
        ['/admin/secrets/list', { entity: 'acme' }],
        ['/admin/secrets/delete', { entity: 'acme', name: 'K' }],
      ] as const) {
        const r = await t.post(path, b, who);
        assert.equal(r.status, 403, `${path}: ${r.text}`);
      }
    }
    assert.equal((await t.post('/admin/secrets/list', { entity: 'acme' })).status, 401);
    assert.equal((await t.post('/admin/secrets/list', { entity: 'acme' }, boss)).body.secrets.length, 1);
  } finally {
    await t.close();
  }
});

test('malformed requests are 4xx saying what is wrong (422 for the schema, as Weave answers)', async () => {
  const t = await startTestApp();
  try {
    const cases: [string, unknown, RegExp, number?][] = [
      ['/admin/secrets/set', { entity: 'acme', name: '1BAD', value: 'v' }, /Invalid secret name/],
      ['/admin/secrets/set', { entity: 'acme', name: 'A B', value: 'v' }, /Invalid secret name/],
      ['/admin/secrets/set', { entity: 'acme', name: 'K', value: '' }, /needs a value/],
      ['/admin/secrets/set', { entity: 'acme', name: 'K', value: 'x'.repeat(16 * 1024 + 1) }, /at most 16384 bytes/],
      ['/admin/secrets/set', { entity: 'a/b', name: 'K', value: 'v' }, /Invalid entity/],
      ['/admin/secrets/set', { entity: 'acme', name: 'K' }, /"value".*missing/, 422],
      ['/admin/secrets/set', { entity: 'acme', name: 'K', value: 7 }, /"value"/, 422],
      ['/admin/secrets/set', { entity: 'acme', name: 'K', value: 'v', extra: 1 }, /"extra"/, 422],
      ['/admin/secrets/list', {}, /"entity"/, 422],
      ['/admin/secrets/delete', { entity: 'acme' }, /"name"/, 422],
    ];
    for (const [path, body, re, status] of cases) {
      const r = await t.post(path, body);
      assert.equal(r.status, status ?? 400, `${JSON.stringify(body).slice(0, 80)}: ${r.text}`);
      assert.match(r.text, re);
    }
    const raw = await t.postRaw('/admin/secrets/set', '{"entity": ', 'application/json');
    assert.equal(raw.status, 400);
    assert.deepEqual((await t.post('/admin/secrets/list', { entity: 'acme' })).body.secrets, []);
  } finally {
    await t.close();
  }
});
