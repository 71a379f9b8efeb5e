// POST /obj/create through HTTP: digests, kinds and classes, versioning, idempotency,
// builtin_object_class and expected_digest rules, object id rules, malformed bodies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT as P, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { valDigest } from '../src/service/json/digest.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const FILE_DIGEST = '47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU';
const opVal = (file = FILE_DIGEST) => ({
  _type: 'CustomWeaveType',
  weave_type: { type: 'Op' },
  files: { 'obj.py': file },
  load_op: 'NO_LOAD_OP',
});
const datasetVal = (name: string) => ({
  _type: 'Dataset',
  _class_name: 'Dataset',
  _bases: ['Object', 'BaseModel'],
  name,
  description: null,
  rows: 'weave:///e/p/table/abc',
});

async function create(objectId: string, val: unknown, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await t.post('/obj/create', { obj: { project_id: P, object_id: objectId, val, ...extra } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body).sort(), ['digest', 'object_id']);
  assert.equal(r.body.object_id, objectId);
  return r.body.digest as string;
}
const versions = async (objectId: string) =>
  (await t.post('/objs/query', { project_id: P, filter: { object_ids: [objectId] } })).body.objs as any[];
const read = (objectId: string, digest: string) => t.post('/obj/read', { project_id: P, object_id: objectId, digest });

test('create returns the Python-compatible digest (sorted-key json.dumps) and the object id', async () => {
  const digest = await create('add', opVal());
  assert.equal(digest, '2c6QkCYYGmHnEvJXZo1UdFMhsT55w4gnjTCxXx33yV4');
  assert.equal(digest, valDigest(opVal()));
  assert.match(digest, /^[A-Za-z0-9]{43}$/);
});

test('kind: the SDK op placeholder is an op, anything else an object', async () => {
  await create('kind-op', opVal());
  await create('kind-plain', { greeting: 'hello', n: 3 });
  await create('kind-typed', { _type: 'Op' });
  await create('kind-custom-other', { _type: 'CustomWeaveType', weave_type: { type: 'PIL.Image.Image' }, files: {} });
  await create('kind-scalar', 42);
  const kinds = Object.fromEntries(
    (
      await t.post('/objs/query', {
        project_id: P,
        filter: { object_ids: ['kind-op', 'kind-plain', 'kind-typed', 'kind-custom-other', 'kind-scalar'] },
      })
    ).body.objs.map((o: any) => [o.object_id, o.kind]),
  );
  assert.deepEqual(kinds, {
    'kind-op': 'op',
    'kind-plain': 'object',
    'kind-typed': 'op',
    'kind-custom-other': 'object',
    'kind-scalar': 'object',
  });
});

test('classes: Dataset is its own base class; a Model subclass has base Model and its own leaf', async () => {
  await create('ds', datasetVal('ds'));
  await create('my-model', {
    _type: 'MyModel',
    _class_name: 'MyModel',
    _bases: ['Model', 'Object', 'BaseModel'],
    name: 'm',
  });
  await create('not-weave', { _class_name: 'X', _bases: ['Thing', 'BaseModel'] });
  const [ds] = await versions('ds');
  assert.equal(ds.base_object_class, 'Dataset');
  assert.equal(ds.leaf_object_class, 'Dataset');
  const [m] = await versions('my-model');
  assert.equal(m.base_object_class, 'Model');
  assert.equal(m.leaf_object_class, 'MyModel');
  const [n] = await versions('not-weave');
  assert.equal(n.base_object_class, null);
  assert.equal(n.leaf_object_class, null);
});

test('versions: each new value is the next version_index and the only latest one', async () => {
  const d0 = await create('cfg', { v: 0 });
  const d1 = await create('cfg', { v: 1 });
  const d2 = await create('cfg', { v: 2 });
  const vs = await versions('cfg');
  assert.deepEqual(
    vs.map((o) => [o.digest, o.version_index, o.is_latest]),
    [
      [d0, 0, 0],
      [d1, 1, 0],
      [d2, 2, 1],
    ],
  );
});

test('idempotent: an identical re-create returns the same digest without a new version, and becomes latest again', async () => {
  const d0 = await create('retry', { a: 1, b: [1, 2] });
  assert.equal(await create('retry', { b: [1, 2], a: 1 }), d0, 'key order does not change the digest');
  assert.equal((await versions('retry')).length, 1);
  const d1 = await create('retry', { a: 2 });
  assert.equal(await create('retry', { a: 1, b: [1, 2] }), d0);
  const vs = await versions('retry');
  assert.deepEqual(
    vs.map((o) => [o.digest, o.version_index, o.is_latest]),
    [
      [d0, 0, 1],
      [d1, 1, 0],
    ],
  );
  assert.equal((await read('retry', 'latest')).body.obj.digest, d0);
});

test('a deleted version re-created is resurrected with a new version_index', async () => {
  const d0 = await create('phoenix', { n: 0 });
  const d1 = await create('phoenix', { n: 1 });
  assert.equal((await t.post('/obj/delete', { project_id: P, object_id: 'phoenix', digests: [d0] })).status, 200);
  assert.equal(await create('phoenix', { n: 0 }), d0);
  const vs = await versions('phoenix');
  assert.deepEqual(
    vs.map((o) => [o.digest, o.version_index, o.is_latest, o.deleted_at]),
    [
      [d1, 1, 0, null],
      [d0, 2, 1, null],
    ],
  );
  const d2 = await create('phoenix', { n: 2 });
  assert.equal(
    (await read('phoenix', d2)).body.obj.version_index,
    3,
    'indexes keep counting every version ever stored',
  );
});

test('wb_user_id is decided by the server; a client value is ignored', async () => {
  await create('owned', { x: 1 }, { wb_user_id: 'mallory' });
  const [o] = await versions('owned');
  assert.equal(o.wb_user_id, LOCAL_USER);
});

test('object ids the TS SDK sends verbatim (spaces, slashes, bangs, unicode) are accepted', async () => {
  for (const id of [
    'my op/v1 (beta)',
    'my score!.score',
    'Evaluation.predict_and_score',
    'ünïcødé 名前',
    'a'.repeat(512),
  ]) {
    await create(id, opVal());
    assert.equal((await read(id, 'latest')).status, 200);
  }
});

test('invalid object ids are a 400: empty, longer than 512, control characters', async () => {
  for (const id of ['', 'a'.repeat(513), 'tab\there', 'nul\u0000', 'del\u007f']) {
    const r = await t.post('/obj/create', { obj: { project_id: P, object_id: id, val: {} } });
    assert.equal(r.status, 400, JSON.stringify(id));
    assert.equal(r.body.error_code, 'INVALID_REQUEST');
    assert.match(r.body.reason, /Invalid object name/);
  }
});

test('builtin_object_class: accepted when the value already declares that class', async () => {
  const d = await create('bc-ok', datasetVal('bc-ok'), { builtin_object_class: 'Dataset' });
  assert.equal(d, valDigest(datasetVal('bc-ok')));
  await create('bc-legacy', datasetVal('bc-legacy'), { set_base_object_class: 'Dataset' });
  await create('bc-null', { x: 1 }, { builtin_object_class: null, set_base_object_class: null });
});

test('builtin_object_class: non-dict value, class mismatch and unknown class are 400s', async () => {
  const cases: [unknown, string, RegExp][] = [
    [[1, 2], 'Dataset', /non-dict/],
    ['text', 'Dataset', /non-dict/],
    [datasetVal('x'), 'Leaderboard', /must match/],
    [{ plain: true }, 'AlertSpec', /Unknown object class: AlertSpec/],
  ];
  for (const [val, cls, re] of cases) {
    const r = await t.post('/obj/create', {
      obj: { project_id: P, object_id: 'bc-bad', val, builtin_object_class: cls },
    });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.reason, re);
  }
  const legacy = await t.post('/obj/create', {
    obj: { project_id: P, object_id: 'bc-bad', val: 5, set_base_object_class: 'Dataset' },
  });
  assert.equal(legacy.status, 400);
  assert.equal((await versions('bc-bad')).length, 0);
});

test('expected_digest: equal is fine, different is a 409 and nothing is stored', async () => {
  const val = { exp: 1 };
  await create('exp', val, { expected_digest: valDigest(val) });
  const r = await t.post('/obj/create', { obj: { project_id: P, object_id: 'exp2', val, expected_digest: 'nope' } });
  assert.equal(r.status, 409);
  assert.equal(r.body.error_code, 'DIGEST_MISMATCH');
  assert.equal((await versions('exp2')).length, 0);
});

test('CustomWeaveType file keys may not escape: absolute or climbing paths are a 400', async () => {
  for (const key of ['/etc/passwd', '../up.py', 'a/../../b.py']) {
    const r = await t.post('/obj/create', {
      obj: {
        project_id: P,
        object_id: 'files',
        val: { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { [key]: 'd' } },
      },
    });
    assert.equal(r.status, 400, key);
  }
  await create('files-ok', { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'a/../obj.py': 'd' } });
});

test('values of every JSON type round-trip; null is a value', async () => {
  const val = { s: 'é😀\n', n: -1.5e-7, i: 12, b: false, z: null, l: [[], {}], o: { '2': 'two', '10': 'ten' } };
  const d = await create('types', val);
  assert.deepEqual((await read('types', d)).body.obj.val, val);
  const dn = await create('null-val', null);
  assert.equal((await read('null-val', dn)).body.obj.val, null);
});

test('malformed bodies: missing fields, wrong types and unknown top-level keys are 422 in FastAPI shape', async () => {
  const cases: [unknown, (string | number)[], string][] = [
    [{}, ['body', 'obj'], 'missing'],
    [{ obj: { project_id: P, object_id: 'm' } }, ['body', 'obj', 'val'], 'missing'],
    [{ obj: { object_id: 'm', val: 1 } }, ['body', 'obj', 'project_id'], 'missing'],
    [{ obj: { project_id: P, object_id: 7, val: 1 } }, ['body', 'obj', 'object_id'], 'string_type'],
    [
      { obj: { project_id: P, object_id: 'm', val: 1, builtin_object_class: 3 } },
      ['body', 'obj', 'builtin_object_class'],
      '',
    ],
    [{ obj: { project_id: P, object_id: 'm', val: 1 }, extra: true }, ['body', 'extra'], 'extra_forbidden'],
    [{ obj: 'nope' }, ['body', 'obj'], 'object_type'],
  ];
  for (const [body, loc, type] of cases) {
    const r = await t.post('/obj/create', body);
    assert.equal(r.status, 422, JSON.stringify(body));
    const [issue] = r.body.detail;
    assert.deepEqual(issue.loc.slice(0, loc.length), loc, JSON.stringify(r.body));
    assert.equal(typeof issue.msg, 'string');
    if (type) assert.equal(issue.type, type);
  }
});

test('a value nested deeper than the serializer can follow is a 400, not a 500', async () => {
  const n = 50_000;
  const r = await t.postRaw(
    '/obj/create',
    `{"obj":{"project_id":"${P}","object_id":"deep","val":${'['.repeat(n)}${']'.repeat(n)}}}`,
  );
  assert.equal(r.status, 400, r.text.slice(0, 200));
});

test('nested insert payloads are lenient: unknown keys inside obj are ignored', async () => {
  await create('lenient', { a: 1 }, { future_field: 'x' });
});

test('malformed JSON and a non-JSON body are 4xx answers with a JSON body', async () => {
  const bad = await t.postRaw('/obj/create', '{"obj": ');
  assert.ok(bad.status >= 400 && bad.status < 500);
  assert.equal(typeof bad.body.reason, 'string');
  const text = await t.postRaw('/obj/create', 'hello', 'text/plain');
  assert.ok(text.status >= 400 && text.status < 500);
  assert.ok(text.body !== undefined, 'the body is JSON');
});
