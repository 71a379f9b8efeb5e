// POST /obj/delete through HTTP (weave-api.md §2, §3.3): all versions or named ones,
// all-or-nothing on missing digests, latest moving to the newest survivor, 400/404/422s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

async function create(objectId: string, val: unknown): Promise<string> {
  const r = await t.post('/obj/create', { obj: { project_id: P, object_id: objectId, val } });
  assert.equal(r.status, 200, r.text);
  await sleep(2);
  return r.body.digest;
}
const del = (objectId: string, digests?: unknown) =>
  t.post('/obj/delete', { project_id: P, object_id: objectId, ...(digests === undefined ? {} : { digests }) });
const live = async (objectId: string) =>
  ((await t.post('/objs/query', { project_id: P, filter: { object_ids: [objectId] } })).body.objs as any[]).map((o) => [
    o.version_index,
    o.is_latest,
  ]);

test('without digests every live version is deleted; the answer counts and lists them (digest, classes)', async () => {
  const d0 = await create('all', { n: 0 });
  const d1 = await create('all', {
    _type: 'Dataset',
    _class_name: 'Dataset',
    _bases: ['Object', 'BaseModel'],
    rows: [],
  });
  const r = await del('all');
  assert.equal(r.status, 200);
  assert.equal(r.body.num_deleted, 2);
  assert.deepEqual(
    [...r.body.deleted_versions].sort((a: any, b: any) => (a.digest < b.digest ? -1 : 1)),
    [
      { digest: d0, base_object_class: null, leaf_object_class: null },
      { digest: d1, base_object_class: 'Dataset', leaf_object_class: 'Dataset' },
    ].sort((a, b) => (a.digest < b.digest ? -1 : 1)),
  );
  assert.deepEqual(await live('all'), []);
  assert.equal((await t.post('/obj/read', { project_id: P, object_id: 'all', digest: 'latest' })).status, 404);
  assert.deepEqual((await del('all', [])).status, 404, 'nothing live is left');
});

test('named versions: digests, v<N> and latest; latest moves to the newest survivor', async () => {
  const d0 = await create('some', { n: 0 });
  await create('some', { n: 1 });
  await create('some', { n: 2 });
  const latest = (await del('some', ['latest'])).body;
  assert.equal(latest.num_deleted, 1);
  assert.equal(latest.deleted_versions.length, 1, 'an alias is resolved to the content digest');
  assert.match(latest.deleted_versions[0].digest, /^[A-Za-z0-9]{43}$/);
  assert.deepEqual(await live('some'), [
    [0, 0],
    [1, 1],
  ]);
  const two = (await del('some', ['v1', d0, 'v1'])).body;
  assert.equal(two.num_deleted, 2);
  assert.ok(two.deleted_versions.some((v: any) => v.digest === d0));
  assert.deepEqual(await live('some'), []);
});

test('deleting an older version keeps the current latest', async () => {
  const d0 = await create('keep', { n: 0 });
  const d1 = await create('keep', { n: 1 });
  await create('keep', { n: 0 }); // identical re-create: v0 is the latest again
  assert.deepEqual(await live('keep'), [
    [0, 1],
    [1, 0],
  ]);
  assert.equal((await del('keep', [d1])).status, 200);
  assert.equal((await t.post('/obj/read', { project_id: P, object_id: 'keep', digest: 'latest' })).body.obj.digest, d0);
});

test('versions created after a delete keep counting deleted ones', async () => {
  await create('count', { n: 0 });
  await create('count', { n: 1 });
  await del('count');
  const d2 = await create('count', { n: 2 });
  const o = (await t.post('/obj/read', { project_id: P, object_id: 'count', digest: d2 })).body.obj;
  assert.equal(o.version_index, 2);
  assert.equal(o.is_latest, 1);
});

test('a delete drops the tags and aliases of the deleted versions', async () => {
  const d0 = await create('labels', { n: 0 });
  await t.app.inject({
    method: 'PUT',
    url: `/objs/labels/versions/${d0}/tags`,
    payload: { project_id: P, tags: ['t'] },
  });
  await t.app.inject({
    method: 'PUT',
    url: '/objs/labels/aliases',
    payload: { project_id: P, digest: d0, aliases: ['a'] },
  });
  await del('labels', [d0]);
  assert.equal(await create('labels', { n: 0 }), d0, 'resurrected');
  const o = (
    await t.post('/obj/read', { project_id: P, object_id: 'labels', digest: d0, include_tags_and_aliases: true })
  ).body.obj;
  assert.deepEqual([o.tags, o.aliases], [[], ['latest']]);
  assert.equal((await t.post('/obj/read', { project_id: P, object_id: 'labels', digest: 'a' })).status, 404);
});

test('no live match is a 404 "Object <id> (<digests>) not found when deleting."', async () => {
  const missing = await del('never-created');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.reason, 'Object never-created (None) not found when deleting.');
  await create('exists', { n: 0 });
  const wrong = await del('exists', ['nope']);
  assert.equal(wrong.status, 404);
  assert.equal(wrong.body.reason, "Object exists (['nope']) not found when deleting.");
});

test('some digests missing: 404 and nothing is deleted', async () => {
  const d0 = await create('partial', { n: 0 });
  const r = await del('partial', [d0, 'v9']);
  assert.equal(r.status, 404);
  assert.match(r.body.reason, /contains 2 digests, but found 1 objects to delete.*'v9'/);
  assert.deepEqual(await live('partial'), [[0, 1]]);
});

test('already deleted versions do not match again', async () => {
  const d0 = await create('twice', { n: 0 });
  await create('twice', { n: 1 });
  assert.equal((await del('twice', [d0])).status, 200);
  assert.equal((await del('twice', [d0])).status, 404);
});

test('more than 100 digests is a 400', async () => {
  await create('many', { n: 0 });
  const r = await del(
    'many',
    Array.from({ length: 101 }, (_, i) => `v${i}`),
  );
  assert.equal(r.status, 400);
  assert.equal(r.body.error_code, 'INVALID_REQUEST');
  assert.match(r.body.reason, /Too many items in body\.digests: at most 100 are allowed \(101 given\)/);
  assert.deepEqual(await live('many'), [[0, 1]]);
});

test('malformed delete bodies are 422s; explicit nulls are accepted', async () => {
  const cases: [Record<string, unknown>, (string | number)[], string][] = [
    [{ project_id: P }, ['body', 'object_id'], 'missing'],
    [{ object_id: 'x' }, ['body', 'project_id'], 'missing'],
    [{ project_id: P, object_id: 'x', digests: 'abc' }, ['body', 'digests'], ''],
    [{ project_id: P, object_id: 'x', digests: [1] }, ['body', 'digests', 0], ''],
    [{ project_id: P, object_id: 'x', purge: true }, ['body', 'purge'], 'extra_forbidden'],
  ];
  for (const [body, loc, type] of cases) {
    const r = await t.post('/obj/delete', body);
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.deepEqual(r.body.detail[0].loc.slice(0, loc.length), loc, JSON.stringify(r.body));
    if (type) assert.equal(r.body.detail[0].type, type);
  }
  await create('nulls', { n: 0 });
  assert.equal(
    (await t.post('/obj/delete', { project_id: P, object_id: 'nulls', digests: null, wb_user_id: null })).body
      .num_deleted,
    1,
  );
});
