// /feedback/replace against the interface document's table (§4.2), field by field:
// every request field is stored and visible through /feedback/query, defaults apply,
// the response has exactly id, created_at, wb_user_id, payload.
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

const REF = (tail: string) => `weave:///${PROJECT}/${tail}`;
const eqId = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] });
const rowsWithId = async (id: string) => {
  const r = await t.post('/feedback/query', { project_id: PROJECT, query: { $expr: eqId(id) } });
  assert.equal(r.status, 200, r.text);
  return r.body.result as Record<string, unknown>[];
};
const seed = async (over: Record<string, unknown> = {}) => {
  const r = await t.post('/feedback/create', {
    project_id: PROJECT,
    weave_ref: REF('call/seed'),
    feedback_type: 'custom',
    payload: { v: 0 },
    ...over,
  });
  assert.equal(r.status, 200, r.text);
  return r.body.id as string;
};

/** Every field of the table, with a non-default value. */
const FULL = {
  project_id: PROJECT,
  weave_ref: REF('call/target-call'),
  feedback_type: 'wandb.runnable.judge',
  payload: { output: { verdict: 'good', score: 0.9 } },
  creator: 'Ada',
  runnable_ref: REF('op/judge:abc123'),
  call_ref: REF('call/judge-call'),
  trigger_ref: REF('object/monitor:def456'),
  queue_id: 'queue-7',
  scorer_tags: ['helpful', 'concise'],
  scorer_tag_reasons: { helpful: 'answers the question', concise: 'short' },
  scorer_tag_confidences: { helpful: 0.8, concise: 1 },
  scorer_ratings: { quality: 0.75, safety: 0 },
  scorer_rating_reasons: { quality: 'mostly right', safety: 'n/a' },
  scorer_rating_confidences: { quality: 0.5, safety: 0.25 },
  span_agent_name: 'support-bot',
  span_agent_version: 'v3',
  span_status_code: 'OK',
  scorer_trace_id: 'trace-of-the-scorer',
  span_trace_id: 'otel-trace',
  span_conversation_id: 'conversation-7',
};

test('replace stores every field of the table and answers exactly id, created_at, wb_user_id, payload', async () => {
  const old = await seed();
  const r = await t.post('/feedback/replace', { ...FULL, feedback_id: old, wb_user_id: 'client-says-so' });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body).sort(), ['created_at', 'id', 'payload', 'wb_user_id']);
  assert.notEqual(r.body.id, old);
  assert.equal(r.body.wb_user_id, LOCAL_USER);
  assert.deepEqual(r.body.payload, FULL.payload);
  assert.deepEqual(await rowsWithId(old), []);
  const [row] = await rowsWithId(r.body.id);
  const { project_id, ...fields } = FULL;
  assert.deepEqual(row, {
    id: r.body.id,
    project_id,
    created_at: r.body.created_at,
    wb_user_id: LOCAL_USER,
    annotation_ref: null,
    ...fields,
  });
});

test('absent optional fields take the documented defaults; explicit nulls too', async () => {
  const minimal = { project_id: PROJECT, weave_ref: REF('object/thing:d1'), feedback_type: 'custom', payload: {} };
  const nulls = {
    id: null,
    creator: null,
    annotation_ref: null,
    runnable_ref: null,
    call_ref: null,
    trigger_ref: null,
    queue_id: null,
    scorer_tags: null,
    scorer_tag_reasons: null,
    scorer_tag_confidences: null,
    scorer_ratings: null,
    scorer_rating_reasons: null,
    scorer_rating_confidences: null,
    span_agent_name: null,
    span_agent_version: null,
    span_status_code: null,
    scorer_trace_id: null,
    span_trace_id: null,
    span_conversation_id: null,
    wb_user_id: null,
  };
  for (const body of [minimal, { ...minimal, ...nulls }]) {
    const r = await t.post('/feedback/replace', { ...body, feedback_id: 'does-not-exist' });
    assert.equal(r.status, 200, r.text);
    const [row] = await rowsWithId(r.body.id);
    assert.deepEqual(row, {
      id: r.body.id,
      project_id: PROJECT,
      weave_ref: minimal.weave_ref,
      wb_user_id: LOCAL_USER,
      creator: null,
      created_at: r.body.created_at,
      feedback_type: 'custom',
      payload: {},
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
  }
});

test('annotation feedback keeps its annotation_ref', async () => {
  const r = await t.post('/feedback/replace', {
    project_id: PROJECT,
    weave_ref: REF('call/c'),
    feedback_type: 'wandb.annotation.rating',
    payload: { value: 4 },
    annotation_ref: REF('object/rating:d9'),
    feedback_id: 'nothing-yet',
  });
  assert.equal(r.status, 200, r.text);
  assert.equal((await rowsWithId(r.body.id))[0]!.annotation_ref, REF('object/rating:d9'));
});

test('a client id becomes the new row id, even when it equals feedback_id', async () => {
  const old = await seed({ id: 'fixed-id' });
  const r = await t.post('/feedback/replace', {
    project_id: PROJECT,
    weave_ref: REF('call/x'),
    feedback_type: 'custom',
    payload: { v: 2 },
    feedback_id: old,
    id: 'fixed-id',
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.id, 'fixed-id');
  const rows = await rowsWithId('fixed-id');
  assert.equal(rows.length, 1);
  assert.deepEqual(rows[0]!.payload, { v: 2 });
  const r2 = await t.post('/feedback/replace', {
    project_id: PROJECT,
    weave_ref: REF('call/x'),
    feedback_type: 'custom',
    payload: {},
    feedback_id: 'fixed-id',
    id: 'fresh-id',
  });
  assert.equal(r2.body.id, 'fresh-id');
  assert.deepEqual(await rowsWithId('fixed-id'), []);
});

test('replace gives the new row a new created_at', async () => {
  const old = await seed();
  const [before] = await rowsWithId(old);
  await new Promise((res) => setTimeout(res, 5));
  const r = await t.post('/feedback/replace', {
    project_id: PROJECT,
    weave_ref: REF('call/x'),
    feedback_type: 'custom',
    payload: {},
    feedback_id: old,
  });
  assert.ok(Date.parse(r.body.created_at) > Date.parse(String(before!.created_at)));
});

test('an invalid replacement is refused before anything is deleted', async () => {
  const old = await seed();
  const r = await t.post('/feedback/replace', {
    project_id: PROJECT,
    weave_ref: REF('call/x'),
    feedback_type: 'wandb.note.1',
    payload: { note: '' },
    feedback_id: old,
  });
  assert.equal(r.status, 400, r.text);
  assert.equal((await rowsWithId(old)).length, 1);
  const bad = await t.post('/feedback/replace', {
    project_id: PROJECT,
    weave_ref: REF('call/x'),
    feedback_type: 'custom',
    payload: {},
    feedback_id: old,
    scorer_ratings: { q: 2 },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal((await rowsWithId(old)).length, 1);
});

test('replace only removes the row of its own project', async () => {
  const theirs = await t.post('/feedback/create', {
    project_id: 'other/proj',
    weave_ref: 'weave:///other/proj/call/x',
    feedback_type: 'custom',
    payload: {},
  });
  const r = await t.post('/feedback/replace', {
    project_id: PROJECT,
    weave_ref: REF('call/x'),
    feedback_type: 'custom',
    payload: {},
    feedback_id: theirs.body.id,
  });
  assert.equal(r.status, 200, r.text);
  const still = await t.post('/feedback/query', { project_id: 'other/proj', query: { $expr: eqId(theirs.body.id) } });
  assert.equal(still.body.result.length, 1);
});

test('schema: feedback_id required, ranges 0..1, types per the table, unknown keys refused (422)', async () => {
  const ok = { project_id: PROJECT, weave_ref: REF('call/x'), feedback_type: 'custom', payload: {}, feedback_id: 'f' };
  const cases: [Record<string, unknown>, (string | number)[], string][] = [
    [{ ...ok, feedback_id: undefined }, ['body', 'feedback_id'], 'missing'],
    [{ ...ok, feedback_id: null }, ['body', 'feedback_id'], 'string_type'],
    [{ ...ok, scorer_tag_confidences: { a: 1.5 } }, ['body', 'scorer_tag_confidences', 'a'], 'maximum'],
    [{ ...ok, scorer_ratings: { a: -0.1 } }, ['body', 'scorer_ratings', 'a'], 'minimum'],
    [{ ...ok, scorer_rating_confidences: { a: 2 } }, ['body', 'scorer_rating_confidences', 'a'], 'maximum'],
    [{ ...ok, scorer_ratings: { a: 'high' } }, ['body', 'scorer_ratings', 'a'], 'number_type'],
    [{ ...ok, scorer_tags: 'helpful' }, ['body', 'scorer_tags'], 'array_type'],
    [{ ...ok, scorer_tags: [1] }, ['body', 'scorer_tags', 0], 'string_type'],
    [{ ...ok, scorer_tag_reasons: { a: 1 } }, ['body', 'scorer_tag_reasons', 'a'], 'string_type'],
    [{ ...ok, span_status_code: 3 }, ['body', 'span_status_code'], 'string_type'],
    [{ ...ok, payload: [] }, ['body', 'payload'], 'object_type'],
    [{ ...ok, surprise: true }, ['body', 'surprise'], 'extra_forbidden'],
  ];
  for (const [body, loc, type] of cases) {
    const r = await t.post('/feedback/replace', body);
    assert.equal(r.status, 422, `${JSON.stringify(body)} -> ${r.text}`);
    const d = r.body.detail[0];
    assert.deepEqual(d.loc, loc, r.text);
    assert.equal(typeof d.msg, 'string');
    assert.ok(d.type === type || (type.endsWith('_type') && /type|union|literal/.test(d.type)), `${type} vs ${r.text}`);
  }
});
