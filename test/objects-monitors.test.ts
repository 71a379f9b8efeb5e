// Monitors as the Weave SDK and UI write them, on either engine: a query with the SDK's
// bookkeeping keys or without them is checked on /obj/create against what the monitor scores
// (calls, or agent spans for `weave.genai.turn_ended`): an unknown field is a 422 naming it, a
// malformed expression a 400 saying where, and nothing is stored; a value that is no query
// is stored as it came, as Weave's server does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PROJECT, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t?.close();
});

/** An operator node as the SDK serializes it (weave-objects.md §1.2). */
const node = (type: string, body: Record<string, unknown>) => ({
  _type: type,
  ...body,
  _class_name: type,
  _bases: ['BaseModel'],
});
const sdkQuery = (field: string, literal: unknown) =>
  node('Query', {
    $expr: node('GtOperation', {
      $gt: [node('GetFieldOperator', { $getField: field }), node('LiteralOperation', { $literal: literal })],
    }),
  });

const monitor = (query: unknown, opNames: string[] = [], cls = 'Monitor') => ({
  _type: cls,
  name: 'm',
  description: null,
  sampling_rate: 0.5,
  scorers: [`weave:///${PROJECT}/object/judge:abc`],
  op_names: opNames,
  query,
  is_traced: true,
  active: true,
  _class_name: cls,
  _bases: cls === 'Monitor' ? ['Object', 'BaseModel'] : ['Monitor', 'Object', 'BaseModel'],
});

const create = (objectId: string, val: unknown) =>
  t.post('/obj/create', { obj: { project_id: PROJECT, object_id: objectId, val } });

test('call monitors: SDK and plain queries over call fields are stored; the class is Monitor', async () => {
  const cases = [
    ['sdk-form', monitor(sdkQuery('started_at', 1742540400), [`weave:///${PROJECT}/op/predict:*`])],
    ['plain-form', monitor({ $expr: { $eq: [{ $getField: 'inputs.model' }, { $literal: 'gpt-4o' }] } })],
    ['no-query', monitor(null)],
    [
      'classifier',
      monitor(
        { $expr: { $gt: [{ $getField: 'summary.weave.latency_ms' }, { $literal: 5 }] } },
        [],
        'ClassifierMonitor',
      ),
    ],
    // Not a query: Weave stores it unchecked.
    ['not-a-query', monitor('anything')],
  ] as const;
  for (const [id, val] of cases) {
    const r = await create(id, val);
    assert.equal(r.status, 200, `${id}: ${r.text}`);
    const read = await t.post('/obj/read', { project_id: PROJECT, object_id: id, digest: 'latest' });
    assert.equal(read.body.obj.base_object_class, 'Monitor', id);
    assert.deepEqual(read.body.obj.val.query, (val as { query: unknown }).query, `${id}: stored as sent`);
  }
});

test('agent monitors: queries over agent span fields; call-only fields are unknown there', async () => {
  const ok = await create('turns', monitor(sdkQuery('agent_name', 'support'), ['weave.genai.turn_ended']));
  assert.equal(ok.status, 200, ok.text);
  const bad = await create('turns-bad', monitor(sdkQuery('inputs.model', 'x'), ['weave.genai.turn_ended']));
  assert.equal(bad.status, 422, bad.text);
  assert.match(bad.text, /Invalid agent span field: inputs\.model/);
});

test('an unknown field is a 422, a malformed expression a 400; nothing is stored', async () => {
  const cases: [unknown, number, RegExp][] = [
    [sdkQuery('no_such_field', 1), 422, /no_such_field/],
    [{ $expr: { $eq: [{ $getField: 'op_name' }] } }, 400, /Invalid query at \$expr\.\$eq/],
    [{ $expr: { $like: [{ $getField: 'op_name' }, { $literal: 'x' }] } }, 400, /Invalid query at \$expr/],
  ];
  for (const [query, status, reason] of cases) {
    const r = await create('broken', monitor(query));
    assert.equal(r.status, status, r.text);
    assert.match(r.text, reason);
  }
  const read = await t.post('/obj/read', { project_id: PROJECT, object_id: 'broken', digest: 'latest' });
  assert.equal(read.status, 404);
});
