// POST /objs/query through HTTP, checked against the interface document (§2.4, §4.3):
// filters, default and explicit order, paging, metadata_only, storage size, labels, 422s.
// Each test works in its own project so that the fixtures do not interfere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { canonicalJson } from '../src/service/json/digest.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

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
const opVal = (file: string) => ({
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
  rows: 'weave:///e/p/table/ab',
});
const modelVal = (name: string) => ({
  _type: 'MyModel',
  _class_name: 'MyModel',
  _bases: ['Model', 'Object', 'BaseModel'],
  name,
});

async function create(project: string, objectId: string, val: unknown): Promise<string> {
  const r = await t.post('/obj/create', { obj: { project_id: project, object_id: objectId, val } });
  assert.equal(r.status, 200, r.text);
  await sleep(2); // distinct created_at (millisecond clock) for order assertions
  return r.body.digest;
}
async function query(project: string, body: Record<string, unknown> = {}): Promise<any[]> {
  const r = await t.post('/objs/query', { project_id: project, ...body });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body), ['objs']);
  return r.body.objs;
}
const ids = (objs: any[]) => objs.map((o) => `${o.object_id}:v${o.version_index}`);

/** A small project: two ops, a dataset with two versions, a model, a plain object. */
async function seed(project: string) {
  await create(project, 'op-a', opVal('A'));
  await create(project, 'ds', datasetVal('ds0'));
  await create(project, 'op-b', opVal('B'));
  await create(project, 'ds', datasetVal('ds1'));
  await create(project, 'model', modelVal('m'));
  await create(project, 'plain', { x: 1 });
}

test('no filter: every live version, created_at ASC then version_index ASC, every field present', async () => {
  await seed('q/all');
  const objs = await query('q/all');
  assert.deepEqual(ids(objs), ['op-a:v0', 'ds:v0', 'op-b:v0', 'ds:v1', 'model:v0', 'plain:v0']);
  for (const o of objs) {
    assert.deepEqual(Object.keys(o).sort(), OBJ_KEYS);
    assert.equal(o.project_id, 'q/all');
    assert.ok(o.is_latest === 0 || o.is_latest === 1);
  }
  assert.deepEqual(
    objs.filter((o) => o.object_id === 'ds').map((o) => o.is_latest),
    [0, 1],
  );
  assert.deepEqual(await query('q/empty'), []);
});

test('filters: latest_only, object_ids, is_op, base/exclude/leaf classes', async () => {
  await seed('q/filters');
  const q = async (filter: Record<string, unknown>) => ids(await query('q/filters', { filter }));
  assert.deepEqual(await q({ latest_only: true }), ['op-a:v0', 'op-b:v0', 'ds:v1', 'model:v0', 'plain:v0']);
  assert.deepEqual(await q({ object_ids: ['ds', 'plain', 'missing'] }), ['ds:v0', 'ds:v1', 'plain:v0']);
  assert.deepEqual(await q({ is_op: true }), ['op-a:v0', 'op-b:v0']);
  assert.deepEqual(await q({ is_op: false, latest_only: true }), ['ds:v1', 'model:v0', 'plain:v0']);
  assert.deepEqual(await q({ base_object_classes: ['Dataset', 'Model'] }), ['ds:v0', 'ds:v1', 'model:v0']);
  assert.deepEqual(await q({ exclude_base_object_classes: ['Dataset'] }), [
    'op-a:v0',
    'op-b:v0',
    'model:v0',
    'plain:v0',
  ]);
  assert.deepEqual(await q({ leaf_object_classes: ['MyModel'] }), ['model:v0']);
  assert.deepEqual(
    await q({ object_ids: [], base_object_classes: null, is_op: null, latest_only: null }),
    ids(await query('q/filters')),
  );
});

test('sort_by: object_id and created_at in both directions; other fields are ignored', async () => {
  await seed('q/sort');
  const q = async (sort_by: unknown) => ids(await query('q/sort', { sort_by }));
  assert.deepEqual(await q([{ field: 'object_id', direction: 'asc' }]), [
    'ds:v0',
    'ds:v1',
    'model:v0',
    'op-a:v0',
    'op-b:v0',
    'plain:v0',
  ]);
  assert.deepEqual(await q([{ field: 'object_id', direction: 'desc' }]), [
    'plain:v0',
    'op-b:v0',
    'op-a:v0',
    'model:v0',
    'ds:v0',
    'ds:v1',
  ]);
  assert.deepEqual(await q([{ field: 'created_at', direction: 'desc' }]), [
    'plain:v0',
    'model:v0',
    'ds:v1',
    'op-b:v0',
    'ds:v0',
    'op-a:v0',
  ]);
  assert.deepEqual(await q([{ field: 'created_at', direction: 'asc' }]), [
    'op-a:v0',
    'ds:v0',
    'op-b:v0',
    'ds:v1',
    'model:v0',
    'plain:v0',
  ]);
  assert.deepEqual(
    await q([
      { field: 'val.name', direction: 'desc' },
      { field: 'object_id', direction: 'asc' },
    ]),
    ['ds:v0', 'ds:v1', 'model:v0', 'op-a:v0', 'op-b:v0', 'plain:v0'],
  );
  assert.deepEqual(await q([{ field: 'digest', direction: 'desc' }]), await q(null));
});

test('limit and offset page through the default order', async () => {
  await seed('q/page');
  const all = ids(await query('q/page'));
  assert.deepEqual(ids(await query('q/page', { limit: 2 })), all.slice(0, 2));
  assert.deepEqual(ids(await query('q/page', { limit: 2, offset: 2 })), all.slice(2, 4));
  assert.deepEqual(ids(await query('q/page', { offset: 4 })), all.slice(4));
  assert.deepEqual(ids(await query('q/page', { limit: 0 })), []);
  assert.deepEqual(ids(await query('q/page', { limit: null, offset: null })), all);
});

test('metadata_only empties val; include_storage_size adds size_bytes = length of the stored JSON', async () => {
  const project = 'q/size';
  const val = { text: 'héllo', n: [1, 2.5] };
  await create(project, 'sized', val);
  const [meta] = await query(project, { metadata_only: true });
  assert.deepEqual(meta.val, {});
  assert.ok(!('size_bytes' in meta));
  const [sized] = await query(project, { include_storage_size: true });
  assert.deepEqual(Object.keys(sized).sort(), [...OBJ_KEYS, 'size_bytes'].sort());
  assert.equal(sized.size_bytes, canonicalJson(val).length);
  assert.deepEqual(sized.val, val);
});

test('deleted versions are excluded and latest_only follows the surviving latest', async () => {
  const project = 'q/deleted';
  const d0 = await create(project, 'obj', { n: 0 });
  const d1 = await create(project, 'obj', { n: 1 });
  assert.equal((await t.post('/obj/delete', { project_id: project, object_id: 'obj', digests: [d1] })).status, 200);
  const objs = await query(project);
  assert.deepEqual(
    objs.map((o) => [o.digest, o.is_latest]),
    [[d0, 1]],
  );
  assert.deepEqual(ids(await query(project, { filter: { latest_only: true } })), ['obj:v0']);
});

test('tags and aliases: filters are any-of ("latest" matches the latest version) and labels are returned on request', async () => {
  const project = 'q/labels';
  const d0 = await create(project, 'p', { n: 0 });
  const d1 = await create(project, 'p', { n: 1 });
  const other = await create(project, 'q', { n: 0 });
  const put = (url: string, payload: object) => t.app.inject({ method: 'PUT', url, payload });
  await put(`/objs/p/versions/${d0}/tags`, { project_id: project, tags: ['gold', 'reviewed'] });
  await put(`/objs/q/versions/${other}/tags`, { project_id: project, tags: ['silver'] });
  await put('/objs/p/aliases', { project_id: project, digest: d0, aliases: ['prod'] });
  const q = async (filter: Record<string, unknown>) => ids(await query(project, { filter }));
  assert.deepEqual(await q({ tags: ['gold'] }), ['p:v0']);
  assert.deepEqual(await q({ tags: ['silver', 'gold'] }), ['p:v0', 'q:v0']);
  assert.deepEqual(await q({ tags: ['none'] }), []);
  assert.deepEqual(await q({ aliases: ['prod'] }), ['p:v0']);
  assert.deepEqual(await q({ aliases: ['latest'] }), ['p:v1', 'q:v0']);
  assert.deepEqual(await q({ aliases: ['prod', 'latest'], object_ids: ['p'] }), ['p:v0', 'p:v1']);
  const labelled = await query(project, { include_tags_and_aliases: true, filter: { object_ids: ['p'] } });
  assert.deepEqual(
    labelled.map((o) => [o.digest, o.tags, o.aliases]),
    [
      [d0, ['gold', 'reviewed'], ['prod']],
      [d1, [], ['latest']],
    ],
  );
  for (const o of labelled) assert.deepEqual(Object.keys(o).sort(), [...OBJ_KEYS, 'aliases', 'tags'].sort());
});

test('malformed query bodies are 422s: unknown keys (top level and filter), bad types, bad sort', async () => {
  const cases: [Record<string, unknown>, (string | number)[], string][] = [
    [{}, ['body', 'project_id'], 'missing'],
    [{ project_id: 'q/x', unknown: 1 }, ['body', 'unknown'], 'extra_forbidden'],
    [{ project_id: 'q/x', filter: { object_id: ['a'] } }, ['body', 'filter', 'object_id'], 'extra_forbidden'],
    [{ project_id: 'q/x', filter: { object_ids: 'a' } }, ['body', 'filter', 'object_ids'], ''],
    [{ project_id: 'q/x', limit: 'ten' }, ['body', 'limit'], ''],
    [{ project_id: 'q/x', limit: -1 }, ['body', 'limit'], ''],
    [
      { project_id: 'q/x', sort_by: [{ field: 'object_id', direction: 'DESC' }] },
      ['body', 'sort_by', 0, 'direction'],
      '',
    ],
    [{ project_id: 'q/x', sort_by: [{ field: 'object_id' }] }, ['body', 'sort_by', 0, 'direction'], 'missing'],
  ];
  for (const [body, loc, type] of cases) {
    const r = await t.post('/objs/query', body);
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.deepEqual(r.body.detail[0].loc.slice(0, loc.length), loc, JSON.stringify(r.body));
    if (type) assert.equal(r.body.detail[0].type, type);
  }
});
