// POST /obj/read through HTTP, checked field by field against the interface document
// (§2.4 Object version, §4.4 Obj Read): selectors, metadata_only, tags and aliases, errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT as P, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { canonicalJson } from '../src/service/json/digest.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
// §2.4: every field of the object version, with wb_user_id for svc_user_id; size_bytes,
// tags and aliases appear only when asked for.
const OBJ_KEYS = [
  'base_object_class',
  'created_at',
  'deleted_at',
  'digest',
  'is_latest',
  'kind',
  'leaf_object_class',
  'object_id',
  'project_id',
  'val',
  'version_index',
  'wb_user_id',
];
const datasetVal = {
  _type: 'Dataset',
  _class_name: 'Dataset',
  _bases: ['Object', 'BaseModel'],
  name: 'evals',
  description: 'd',
  rows: 'weave:///e/p/table/0123',
};

async function create(objectId: string, val: unknown): Promise<string> {
  const r = await t.post('/obj/create', { obj: { project_id: P, object_id: objectId, val } });
  assert.equal(r.status, 200, r.text);
  return r.body.digest;
}
const read = (body: Record<string, unknown>) => t.post('/obj/read', { project_id: P, ...body });

test('read by digest: {obj: ObjSchema} with every field present and typed', async () => {
  const before = Date.now();
  const digest = await create('evals', datasetVal);
  const r = await read({ object_id: 'evals', digest });
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body), ['obj']);
  const o = r.body.obj;
  assert.deepEqual(Object.keys(o).sort(), OBJ_KEYS);
  assert.equal(o.project_id, P);
  assert.equal(o.object_id, 'evals');
  assert.match(o.created_at, ISO);
  assert.ok(Math.abs(Date.parse(o.created_at) - before) < 60_000);
  assert.equal(o.deleted_at, null);
  assert.equal(o.digest, digest);
  assert.equal(o.version_index, 0);
  assert.ok(Number.isInteger(o.version_index));
  assert.equal(o.is_latest, 1, 'an integer, not a boolean');
  assert.equal(o.kind, 'object');
  assert.equal(o.base_object_class, 'Dataset');
  assert.equal(o.leaf_object_class, 'Dataset');
  assert.deepEqual(o.val, datasetVal);
  assert.equal(o.wb_user_id, LOCAL_USER);
  assert.match(r.headers['content-type'] as string, /^application\/json/);
});

test('the value comes back as the canonical (sorted-key) JSON that was hashed', async () => {
  const digest = await create('sorted', { b: 1, a: { d: 2, c: 3 } });
  const r = await read({ object_id: 'sorted', digest });
  assert.ok(r.text.includes(`"val":${canonicalJson({ a: { c: 3, d: 2 }, b: 1 })}`), r.text);
});

test('selectors: latest, v<N> and an exact digest name the same versions', async () => {
  const d0 = await create('sel', { n: 0 });
  const d1 = await create('sel', { n: 1 });
  assert.equal((await read({ object_id: 'sel', digest: 'latest' })).body.obj.digest, d1);
  assert.equal((await read({ object_id: 'sel', digest: 'v0' })).body.obj.digest, d0);
  assert.equal((await read({ object_id: 'sel', digest: 'v1' })).body.obj.digest, d1);
  assert.equal((await read({ object_id: 'sel', digest: d0 })).body.obj.is_latest, 0);
  assert.equal((await read({ object_id: 'sel', digest: 'v2' })).status, 404);
});

test('an alias name reads the version it points to', async () => {
  const d0 = await create('aliased', { n: 0 });
  await create('aliased', { n: 1 });
  const set = await t.app.inject({
    method: 'PUT',
    url: '/objs/aliased/aliases',
    payload: { project_id: P, digest: d0, aliases: ['production'] },
  });
  assert.equal(set.statusCode, 200, set.body);
  assert.equal((await read({ object_id: 'aliased', digest: 'production' })).body.obj.digest, d0);
  assert.equal((await read({ object_id: 'aliased', digest: 'staging' })).status, 404);
});

test('metadata_only: val is {} and every other field is returned', async () => {
  const digest = await create('meta', { big: 'x'.repeat(1000) });
  const full = (await read({ object_id: 'meta', digest })).body.obj;
  const meta = (await read({ object_id: 'meta', digest, metadata_only: true })).body.obj;
  assert.deepEqual(meta.val, {});
  assert.deepEqual({ ...meta, val: null }, { ...full, val: null });
  assert.equal((await read({ object_id: 'meta', digest, metadata_only: null })).body.obj.val.big.length, 1000);
});

test('include_tags_and_aliases: tags sorted, aliases with "latest" first on the latest version', async () => {
  const d0 = await create('labelled', { n: 0 });
  const d1 = await create('labelled', { n: 1 });
  const put = (url: string, payload: object) => t.app.inject({ method: 'PUT', url, payload });
  assert.equal(
    (await put(`/objs/labelled/versions/${d1}/tags`, { project_id: P, tags: ['zeta', 'alpha'] })).statusCode,
    200,
  );
  assert.equal(
    (await put('/objs/labelled/aliases', { project_id: P, digest: d1, aliases: ['prod', 'canary'] })).statusCode,
    200,
  );
  const o1 = (await read({ object_id: 'labelled', digest: d1, include_tags_and_aliases: true })).body.obj;
  assert.deepEqual(Object.keys(o1).sort(), [...OBJ_KEYS, 'aliases', 'tags'].sort());
  assert.deepEqual(o1.tags, ['alpha', 'zeta']);
  assert.deepEqual(o1.aliases, ['latest', 'canary', 'prod']);
  const o0 = (await read({ object_id: 'labelled', digest: d0, include_tags_and_aliases: true })).body.obj;
  assert.deepEqual([o0.tags, o0.aliases], [[], []]);
  const plain = (await read({ object_id: 'labelled', digest: d1 })).body.obj;
  assert.ok(!('tags' in plain) && !('aliases' in plain) && !('size_bytes' in plain));
});

test('a missing object or version is a 404 with reason "Obj <id>:<digest> not found"', async () => {
  const r = await read({ object_id: 'nothing-here', digest: 'latest' });
  assert.equal(r.status, 404);
  assert.equal(r.body.reason, 'Obj nothing-here:latest not found');
  assert.equal(r.body.error_code, 'NOT_FOUND');
  await create('other-project-obj', { n: 1 });
  const elsewhere = await t.post('/obj/read', {
    project_id: 'someone/else',
    object_id: 'other-project-obj',
    digest: 'latest',
  });
  assert.equal(elsewhere.status, 404, 'projects are separate');
});

test('a deleted version is a 404 that says when it was deleted', async () => {
  const d0 = await create('gone', { n: 0 });
  await create('gone', { n: 1 });
  assert.equal((await t.post('/obj/delete', { project_id: P, object_id: 'gone', digests: [d0] })).status, 200);
  for (const digest of [d0, 'v0']) {
    const r = await read({ object_id: 'gone', digest });
    assert.equal(r.status, 404);
    assert.equal(r.body.error_code, 'OBJECT_DELETED');
    assert.match(r.body.deleted_at, ISO);
    assert.equal(r.body.reason, `gone:v0 was deleted at ${r.body.deleted_at}`);
  }
  assert.equal((await read({ object_id: 'gone', digest: 'latest' })).body.obj.version_index, 1);
});

test('malformed read bodies are 422s', async () => {
  const cases: [Record<string, unknown>, (string | number)[], string][] = [
    [{ project_id: P, object_id: 'x' }, ['body', 'digest'], 'missing'],
    [{ project_id: P, digest: 'latest' }, ['body', 'object_id'], 'missing'],
    [{ object_id: 'x', digest: 'latest' }, ['body', 'project_id'], 'missing'],
    [{ project_id: P, object_id: 'x', digest: 'latest', metadata_only: 'yes' }, ['body', 'metadata_only'], ''],
    [{ project_id: P, object_id: 'x', digest: 1 }, ['body', 'digest'], 'string_type'],
    [
      { project_id: P, object_id: 'x', digest: 'latest', version_index: 1 },
      ['body', 'version_index'],
      'extra_forbidden',
    ],
  ];
  for (const [body, loc, type] of cases) {
    const r = await t.post('/obj/read', body);
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.deepEqual(r.body.detail[0].loc, loc);
    if (type) assert.equal(r.body.detail[0].type, type);
  }
  const bad = await t.postRaw('/obj/read', '[');
  assert.ok(bad.status >= 400 && bad.status < 500 && typeof bad.body.reason === 'string');
});
