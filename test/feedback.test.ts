// /feedback/create, /feedback/batch/create, /feedback/purge and the store's
// findByWeaveRefs, through HTTP on a real SQLite file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, LOCAL_USER, PROJECT, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3,6}Z$/;
let seq = 0;
const callRef = (project = PROJECT) => `weave:///${project}/call/c-${++seq}`;
const note = (over: Record<string, unknown> = {}) => ({
  project_id: PROJECT,
  weave_ref: callRef(),
  feedback_type: 'wandb.note.1',
  payload: { note: 'hi' },
  ...over,
});
const byId = async (id: string, project = PROJECT) => {
  const r = await t.post('/feedback/query', {
    project_id: project,
    query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } },
  });
  assert.equal(r.status, 200, r.text);
  return r.body.result as Record<string, unknown>[];
};

test('create answers id, created_at, wb_user_id and the stored payload; the row has every column', async () => {
  const req = note({ creator: 'Jane' });
  const before = Date.now();
  const r = await t.post('/feedback/create', req);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body).sort(), ['created_at', 'id', 'payload', 'wb_user_id']);
  assert.match(r.body.id, UUIDV7);
  assert.match(r.body.created_at, ISO);
  assert.ok(Date.parse(r.body.created_at) >= before - 1 && Date.parse(r.body.created_at) <= Date.now() + 1);
  assert.equal(r.body.wb_user_id, LOCAL_USER);
  assert.deepEqual(r.body.payload, { note: 'hi' });
  assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  const [row] = await byId(r.body.id);
  assert.deepEqual(row, {
    id: r.body.id,
    project_id: PROJECT,
    weave_ref: req.weave_ref,
    wb_user_id: LOCAL_USER,
    creator: 'Jane',
    created_at: r.body.created_at,
    feedback_type: 'wandb.note.1',
    payload: { note: 'hi' },
    annotation_ref: null,
    runnable_ref: null,
    call_ref: null,
    trigger_ref: null,
    queue_id: null,
    scorer_tags: [],
    scorer_tag_reasons: {},
    scorer_tag_confidences: {},
    scorer_ratings: {},
    scorer_rating_reasons: {},
    scorer_rating_confidences: {},
    span_agent_name: '',
    span_agent_version: '',
    span_status_code: 'UNSET',
    scorer_trace_id: '',
    span_trace_id: '',
    span_conversation_id: '',
  });
});

test('a client id is the row id, and a retried create with it is idempotent', async () => {
  const req = { ...note(), id: 'client-chosen-1', feedback_type: 'custom', payload: { v: 1 } };
  const a = await t.post('/feedback/create', req);
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.id, 'client-chosen-1');
  const b = await t.post('/feedback/create', { ...req, payload: { v: 2 } });
  assert.equal(b.status, 200, b.text);
  const rows = await byId('client-chosen-1');
  assert.equal(rows.length, 1);
  assert.deepEqual(rows[0]!.payload, { v: 2 });
  const again = await t.post('/feedback/create', { ...note(), id: null });
  assert.match(again.body.id, UUIDV7);
});

test('wb_user_id sent by a client is ignored: the server decides it', async () => {
  const r = await t.post('/feedback/create', note({ wb_user_id: 'mallory' }));
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.wb_user_id, LOCAL_USER);
  assert.equal((await byId(r.body.id))[0]!.wb_user_id, LOCAL_USER);
});

test('a reaction is stored with alias, detoned and detoned_alias', async () => {
  const r = await t.post('/feedback/create', note({ feedback_type: 'wandb.reaction.1', payload: { emoji: '👍🏽' } }));
  assert.equal(r.status, 200, r.text);
  const expected = {
    emoji: '👍🏽',
    alias: ':thumbs_up_medium_skin_tone:',
    detoned: '👍',
    detoned_alias: ':thumbs_up:',
  };
  assert.deepEqual(r.body.payload, expected);
  assert.deepEqual((await byId(r.body.id))[0]!.payload, expected);
});

test('feedback may refer to calls, ops and objects the server has never seen', async () => {
  const r = await t.post('/feedback/create', {
    project_id: PROJECT,
    weave_ref: `weave:///${PROJECT}/call/never-seen`,
    feedback_type: 'wandb.runnable.acc',
    payload: { output: { ok: true } },
    runnable_ref: `weave:///${PROJECT}/op/acc:d1`,
    call_ref: `weave:///${PROJECT}/call/also-unseen`,
  });
  assert.equal(r.status, 200, r.text);
});

test('batch create answers one result per item, in order, and stores them all', async () => {
  const items = [
    note({ payload: { note: 'one' } }),
    note({ feedback_type: 'custom', payload: { n: 2 }, id: 'batch-2' }),
    note({ feedback_type: 'wandb.reaction.1', payload: { emoji: '🎉' } }),
  ];
  const r = await t.post('/feedback/batch/create', { batch: items });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.res.length, 3);
  assert.equal(r.body.res[1].id, 'batch-2');
  assert.equal(r.body.res[2].payload.alias, ':party_popper:');
  for (const res of r.body.res) assert.equal((await byId(res.id)).length, 1);
  const empty = await t.post('/feedback/batch/create', { batch: [] });
  assert.deepEqual(empty.body, { res: [] });
});

test('batch create validates every item before writing anything', async () => {
  const good = note({ id: 'batch-good-1' });
  const r = await t.post('/feedback/batch/create', { batch: [good, note({ payload: { note: '' } })] });
  assert.equal(r.status, 400, r.text);
  assert.match(r.body.reason, /Invalid payload for feedback_type wandb.note.1/);
  assert.deepEqual(await byId('batch-good-1'), []);
});

test('purge deletes by id ($eq or $or of $eq), within the project only, and answers {}', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await t.post('/feedback/create', note())).body.id);
  const other = await t.post(
    '/feedback/create',
    note({ project_id: 'other/proj', weave_ref: callRef('other/proj'), id: ids[0] }),
  );
  assert.equal(other.status, 200, other.text);
  const eq = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] });
  const one = await t.post('/feedback/purge', { project_id: PROJECT, query: { $expr: eq(ids[0]!) } });
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body, {});
  assert.deepEqual(await byId(ids[0]!), []);
  assert.equal((await byId(ids[0]!, 'other/proj')).length, 1);
  const many = await t.post('/feedback/purge', {
    project_id: PROJECT,
    query: { $expr: { $or: [eq(ids[1]!), eq(ids[2]!), eq('missing')] } },
  });
  assert.equal(many.status, 200, many.text);
  assert.deepEqual(await byId(ids[1]!), []);
  assert.deepEqual(await byId(ids[2]!), []);
});

test('purge by anything but ids is a 400 naming the rule', async () => {
  for (const $expr of [
    { $in: [{ $getField: 'id' }, [{ $literal: 'a' }]] },
    { $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.note.1' }] },
    { $eq: [{ $getField: 'id' }, { $literal: 5 }] },
    { $and: [{ $eq: [{ $getField: 'id' }, { $literal: 'a' }] }] },
    { $or: [] },
  ]) {
    const r = await t.post('/feedback/purge', { project_id: PROJECT, query: { $expr } });
    assert.equal(r.status, 400, JSON.stringify($expr));
    assert.equal(r.body.reason, 'Can only purge feedback by specifying one or more feedback ids');
  }
  const missing = await t.post('/feedback/purge', { project_id: PROJECT });
  assert.equal(missing.status, 422);
  assert.deepEqual(missing.body.detail[0].loc, ['body', 'query']);
});

test('findByWeaveRefs returns the rows of the given refs in the project, in insertion order', async () => {
  const ref = callRef();
  const a = (await t.post('/feedback/create', note({ weave_ref: ref, payload: { note: 'a' } }))).body;
  const b = (
    await t.post(
      '/feedback/create',
      note({ weave_ref: ref, feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } }),
    )
  ).body;
  await t.post('/feedback/create', note({ project_id: 'other/proj', weave_ref: `weave:///other/proj/call/x` }));
  const rows = await t.store.feedback.findByWeaveRefs(PROJECT, [ref, callRef(), ref]);
  assert.deepEqual(
    rows.map((r) => r.id),
    [a.id, b.id],
  );
  assert.equal(rows[0]!.wb_user_id, LOCAL_USER);
  assert.equal(typeof rows[0]!.created_at, 'number');
  assert.deepEqual(rows[1]!.payload, b.payload);
  assert.deepEqual(await t.store.feedback.findByWeaveRefs(PROJECT, []), []);
});
