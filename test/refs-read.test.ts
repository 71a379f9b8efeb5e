// POST /refs/read_batch on objects and ops, through HTTP (weave-api.md §1.18, §3.4).
// Table rows (`id` edges) are covered in refs-tables.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';

const OTHER = 'test-entity/other-project';
const MISSING_DIGEST = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG';
let t: TestApp;
const refs = { model: '', holder: '', op: '', gone: '', foreign: '', viaForeign: '' };
const objRef = (name: string, digest: string, project = PROJECT) => `weave:///${project}/object/${name}:${digest}`;

async function create(objectId: string, val: unknown, project = PROJECT): Promise<string> {
  const r = await t.post('/obj/create', { obj: { project_id: project, object_id: objectId, val } });
  assert.equal(r.status, 200, r.text);
  return r.body.digest;
}

before(async () => {
  t = await startTestApp();
  refs.model = objRef(
    'model',
    await create('model', {
      _type: 'Model',
      name: 'm',
      temperature: 0.5,
      tags: ['a', 'b'],
      'a/b': 'slash',
      nothing: null,
    }),
  );
  refs.holder = objRef(
    'holder',
    await create('holder', {
      inner: refs.model,
      list: [refs.model, 'plain'],
      deep: { ref: `${refs.model}/attr/tags` },
    }),
  );
  const opDigest = await create('my_op', {
    _type: 'CustomWeaveType',
    weave_type: { type: 'Op' },
    files: { 'obj.py': 'x' },
  });
  refs.op = `weave:///${PROJECT}/op/my_op:${opDigest}`;
  const goneDigest = await create('gone', { x: 1 });
  refs.gone = objRef('gone', goneDigest);
  assert.equal(
    (await t.post('/obj/delete', { project_id: PROJECT, object_id: 'gone', digests: [goneDigest] })).status,
    200,
  );
  refs.foreign = objRef('secret', await create('secret', { token: 's3cr3t' }, OTHER), OTHER);
  refs.viaForeign = objRef('pointer', await create('pointer', { other: refs.foreign }));
});
after(async () => {
  await t.close();
});

const read = (list: unknown) => t.post('/refs/read_batch', { refs: list });
async function vals(list: string[]): Promise<unknown[]> {
  const r = await read(list);
  assert.equal(r.status, 200, r.text);
  return r.body.vals;
}

test('whole objects and ops come back as stored, in request order, duplicates included', async () => {
  const obj = await t.post('/obj/read', {
    project_id: PROJECT,
    object_id: 'model',
    digest: refs.model.split(':').pop(),
  });
  const got = await vals([refs.op, refs.model, refs.model]);
  assert.equal(got.length, 3);
  assert.deepEqual(got[1], obj.body.obj.val);
  assert.deepEqual(got[2], obj.body.obj.val);
  assert.deepEqual((got[0] as { weave_type: unknown }).weave_type, { type: 'Op' });
  assert.deepEqual(await vals([]), []);
});

test('key, attr and index edges walk into the value', async () => {
  assert.deepEqual(
    await vals([
      `${refs.model}/attr/name`,
      `${refs.model}/key/temperature`,
      `${refs.model}/attr/tags/index/1`,
      `${refs.model}/key/a%2Fb`,
    ]),
    ['m', 0.5, 'b', 'slash'],
  );
  assert.deepEqual(await vals([`${refs.model}/key/nothing`]), [null], 'a stored null is a value');
});

test('a path that leads nowhere gives null', async () => {
  const got = await vals([
    `${refs.model}/key/missing`,
    `${refs.model}/attr/tags/index/2`,
    `${refs.model}/attr/tags/index/-1`,
    `${refs.model}/attr/tags/key/0`,
    `${refs.model}/attr/name/key/x`,
    `${refs.model}/key/constructor`,
    `${refs.model}/key/missing/key/deeper`,
  ]);
  assert.deepEqual(got, [null, null, null, null, null, null, null]);
});

test('nested refs met on the way are followed into the other object', async () => {
  const got = await vals([
    `${refs.holder}/key/inner/attr/name`,
    `${refs.holder}/key/list/index/0/attr/tags/index/0`,
    `${refs.holder}/key/deep/key/ref/index/1`,
  ]);
  assert.deepEqual(got, ['m', 'a', 'b']);
  assert.deepEqual(
    await vals([`${refs.holder}/key/inner`]),
    [refs.model],
    'a ref at the end of the path is returned as is',
  );
});

test('a deleted object reads as null; a missing one is a 404', async () => {
  assert.deepEqual(await vals([refs.gone, `${refs.gone}/key/x`, refs.model]), [
    null,
    null,
    (await vals([refs.model]))[0],
  ]);
  const missing = await read([refs.model, objRef('nothing', MISSING_DIGEST)]);
  assert.equal(missing.status, 404);
  assert.match(missing.body.reason, /nothing/);
  // As Weave's RefObjectsNotFoundError: the missing digests, each once.
  assert.equal(missing.body.error_type, 'RefObjectsNotFoundError');
  assert.deepEqual(missing.body.missing_object_digests, [MISSING_DIGEST]);
  const two = await read([
    objRef('a', MISSING_DIGEST),
    refs.model,
    objRef('b', MISSING_DIGEST),
    objRef('c', MISSING_DIGEST.replace('A', 'B')),
  ]);
  assert.deepEqual(two.body.missing_object_digests, [MISSING_DIGEST, MISSING_DIGEST.replace('A', 'B')]);
  assert.equal((await read([objRef('model', MISSING_DIGEST)])).status, 404, 'an unknown digest of a known object');
});

test('refs are read in their own project, but nested refs never cross into another one', async () => {
  assert.deepEqual(await vals([refs.foreign]), [{ token: 's3cr3t' }]);
  assert.deepEqual(await vals([`${refs.viaForeign}/key/other/key/token`, `${refs.viaForeign}/key/other`]), [
    null,
    refs.foreign,
  ]);
});

test('table, call and latest refs are 400s, and so is any malformed ref', async () => {
  const cases: [string, RegExp][] = [
    [`weave:///${PROJECT}/table/${'a'.repeat(64)}`, /Table refs not supported/],
    [`weave:///${PROJECT}/call/0190a1b2-0000-7000-8000-000000000000`, /Call refs not supported/],
    [objRef('model', 'latest'), /latest/],
    ['not-a-ref', /Invalid ref/],
    [`weave:///${PROJECT}/object/model`, /Invalid ref/],
    [`${refs.model}/key`, /Invalid ref/],
    [`${refs.model}/index/one`, /Invalid ref/],
    [`${refs.model}/bogus/x`, /Invalid ref/],
  ];
  for (const [ref, reason] of cases) {
    const r = await read([refs.model, ref]);
    assert.equal(r.status, 400, ref);
    assert.match(r.body.reason, reason, ref);
  }
  const badId = await read([`${refs.model}/attr/name/id/${'a'.repeat(43)}`]);
  assert.equal(badId.status, 400, 'an id edge needs a table ref');
});

test('at most 1000 refs per request', async () => {
  assert.equal((await vals(Array(1000).fill(`${refs.model}/attr/name`))).length, 1000);
  const r = await read(Array(1001).fill(refs.model));
  assert.equal(r.status, 400);
  assert.equal(r.body.reason, 'Too many items in body.refs: at most 1000 are allowed (1001 given)');
});

test('malformed bodies are 422', async () => {
  for (const body of [{}, { refs: 'x' }, { refs: [1] }, { refs: [refs.model], extra: true }, { refs: null }]) {
    const r = await t.post('/refs/read_batch', body);
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.ok(Array.isArray(r.body.detail));
  }
});
