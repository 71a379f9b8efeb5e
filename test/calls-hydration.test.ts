// include_feedback, expand_columns and feedback fields in $expr, through HTTP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem, jsonl } from './helpers/calls.js';

let t: TestApp;
let modelRef = '';
let tableRowHolderRef = '';
const calls = { scored: start(), plain: start(), withRef: start() };

before(async () => {
  t = await startTestApp();
  const model = await t.post('/obj/create', {
    obj: {
      project_id: PROJECT,
      object_id: 'my-model',
      val: { _type: 'Model', name: 'm', temperature: 0.5, tags: ['a', 'b'] },
    },
  });
  assert.equal(model.status, 200);
  modelRef = `weave:///${PROJECT}/object/my-model:${model.body.digest}`;
  const holder = await t.post('/obj/create', {
    obj: { project_id: PROJECT, object_id: 'holder', val: { inner: modelRef } },
  });
  tableRowHolderRef = `weave:///${PROJECT}/object/holder:${holder.body.digest}`;
  calls.withRef = start({
    inputs: {
      model: modelRef,
      nested: { deep: `${modelRef}/attr/tags/index/1` },
      via: `${tableRowHolderRef}/key/inner/attr/name`,
      plain: 'text',
    },
  });
  await t.post('/call/upsert_batch', {
    batch: Object.values(calls).flatMap((s) => [startItem(s), endItem(end(s.id))]),
  });
  const fb = (type: string, payload: unknown, call = calls.scored.id) =>
    t.post('/feedback/create', {
      project_id: PROJECT,
      weave_ref: `weave:///${PROJECT}/call/${call}`,
      feedback_type: type,
      payload,
    });
  assert.equal((await fb('wandb.note.1', { note: 'looks right' })).status, 200);
  assert.equal((await fb('score', { value: 0.9, label: 'good' })).status, 200);
  assert.equal((await fb('score', { value: 0.2, label: 'bad' }, calls.plain.id)).status, 200);
});
after(async () => {
  await t.close();
});

const query = async (body: Record<string, unknown>) => {
  const r = await t.post('/calls/stream_query', { project_id: PROJECT, ...body });
  assert.equal(r.status, 200, r.text);
  return jsonl(r.text);
};

test('include_feedback lists the feedback of each call in summary.weave.feedback', async () => {
  const got = await query({ filter: { call_ids: [calls.scored.id, calls.withRef.id] }, include_feedback: true });
  const scored = got.find((c) => c.id === calls.scored.id);
  assert.equal(scored.summary.weave.feedback.length, 2);
  const note = scored.summary.weave.feedback.find((f: { feedback_type: string }) => f.feedback_type === 'wandb.note.1');
  assert.deepEqual(Object.keys(note).sort(), [
    'annotation_ref',
    'call_ref',
    'created_at',
    'creator',
    'feedback_type',
    'id',
    'payload',
    'runnable_ref',
    'trigger_ref',
    'wb_user_id',
    'weave_ref',
  ]);
  assert.deepEqual(note.payload, { note: 'looks right' });
  assert.equal(note.wb_user_id, LOCAL_USER);
  assert.match(note.created_at, /^\d{4}-\d{2}-\d{2}T.*Z$/);
  assert.deepEqual(got.find((c) => c.id === calls.withRef.id).summary.weave.feedback, []);
  const without = await query({ filter: { call_ids: [calls.scored.id] } });
  assert.equal(without[0].summary.weave.feedback, undefined);
});

test('$expr and sort_by reach feedback fields', async () => {
  const good = await query({
    query: { $expr: { $eq: [{ $getField: 'feedback.[score].payload.label' }, { $literal: 'good' }] } },
  });
  assert.deepEqual(
    good.map((c) => c.id),
    [calls.scored.id],
  );
  const any = await query({
    query: { $expr: { $gt: [{ $getField: 'feedback.[*].payload.value' }, { $literal: 0.1 }] } },
  });
  assert.deepEqual(any.map((c) => c.id).sort(), [calls.scored.id, calls.plain.id].sort());
  const sorted = await query({
    filter: { call_ids: [calls.scored.id, calls.plain.id] },
    sort_by: [{ field: 'feedback.[score].payload.value', direction: 'asc' }],
  });
  assert.deepEqual(
    sorted.map((c) => c.id),
    [calls.plain.id, calls.scored.id],
  );
});

test('a feedback field is absent on a call without that feedback, so its negation holds there', async () => {
  const exists = { $convert: { input: { $getField: 'feedback.[score].payload.label' }, to: 'exists' } };
  const label = { $eq: [exists, { $literal: true }] };
  const ids = [calls.scored.id, calls.plain.id, calls.withRef.id];
  const has = await query({ filter: { call_ids: ids }, query: { $expr: label } });
  assert.deepEqual(has.map((c) => c.id).sort(), [calls.scored.id, calls.plain.id].sort());
  const lacks = await query({ filter: { call_ids: ids }, query: { $expr: { $not: [label] } } });
  assert.deepEqual(
    lacks.map((c) => c.id),
    [calls.withRef.id],
  );
});

test('expand_columns replaces refs with their values, adding _ref to objects', async () => {
  const [c] = await query({
    filter: { call_ids: [calls.withRef.id] },
    expand_columns: ['inputs.model', 'inputs.nested.deep', 'inputs.via', 'inputs.plain'],
  });
  assert.deepEqual(c.inputs.model, { _type: 'Model', name: 'm', tags: ['a', 'b'], temperature: 0.5, _ref: modelRef });
  assert.equal(c.inputs.nested.deep, 'b');
  assert.equal(c.inputs.via, 'm', 'a nested ref inside another object is followed');
  assert.equal(c.inputs.plain, 'text');
  const [raw] = await query({ filter: { call_ids: [calls.withRef.id] } });
  assert.equal(raw.inputs.model, modelRef);
});

test('expand_columns leaves refs to missing objects alone', async () => {
  const s = start({
    inputs: { model: `weave:///${PROJECT}/object/nothing:AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG` },
  });
  await t.post('/call/start', { start: s });
  const [c] = await query({ filter: { call_ids: [s.id] }, expand_columns: ['inputs.model'] });
  assert.equal(c.inputs.model, s.inputs.model);
});

test('expand_columns never reads into another project', async () => {
  const other = await t.post('/obj/create', {
    obj: { project_id: 'other-entity/private', object_id: 'secret', val: { token: 's3cret' } },
  });
  const foreign = `weave:///other-entity/private/object/secret:${other.body.digest}`;
  const s = start({ inputs: { model: foreign } });
  await t.post('/call/start', { start: s });
  const [c] = await query({ filter: { call_ids: [s.id] }, expand_columns: ['inputs.model'] });
  assert.equal(c.inputs.model, foreign);
});
