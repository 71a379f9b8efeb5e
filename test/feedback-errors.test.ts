// Every documented feedback error through HTTP, and malformed bodies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const REF = (tail: string, project = PROJECT) => `weave:///${project}/${tail}`;
const base = { project_id: PROJECT, weave_ref: REF('call/c1'), feedback_type: 'custom', payload: {} };

async function expect400(body: Record<string, unknown>, reason: RegExp | string) {
  for (const path of ['/feedback/create', '/feedback/replace']) {
    const r = await t.post(path, path.endsWith('replace') ? { ...body, feedback_id: 'f' } : body);
    assert.equal(r.status, 400, `${path} ${JSON.stringify(body)} -> ${r.text}`);
    if (typeof reason === 'string') assert.equal(r.body.reason, reason);
    else assert.match(r.body.reason, reason);
    assert.equal(r.body.error_code, 'INVALID_REQUEST');
  }
}

test('reactions must be exactly one emoji', async () => {
  for (const emoji of ['👍👍', 'nice', '', '👍 ']) {
    await expect400(
      { ...base, feedback_type: 'wandb.reaction.1', payload: { emoji } },
      'Value of emoji key in payload must be exactly one emoji',
    );
  }
  await expect400(
    { ...base, feedback_type: 'wandb.reaction.1', payload: { emoji: 1 } },
    /Invalid payload for feedback_type wandb.reaction.1/,
  );
});

test('notes need 1..1024 characters', async () => {
  await expect400(
    { ...base, feedback_type: 'wandb.note.1', payload: { note: '' } },
    /Invalid payload for feedback_type wandb.note.1/,
  );
  await expect400({ ...base, feedback_type: 'wandb.note.1', payload: { note: 'n'.repeat(1025) } }, /1 to 1024/);
  await expect400({ ...base, feedback_type: 'wandb.note.1', payload: { text: 'x' } }, /note is required/);
});

test('annotation rules', async () => {
  const ann = {
    ...base,
    feedback_type: 'wandb.annotation.tone',
    payload: { value: 'calm' },
    annotation_ref: REF('object/tone:d'),
  };
  await expect400({ ...ann, annotation_ref: undefined }, 'annotation_ref is required for annotation feedback');
  await expect400(
    { ...ann, annotation_ref: REF('object/mood:d') },
    'annotation_ref must point to an object with name tone',
  );
  await expect400({ ...ann, annotation_ref: REF('op/tone:d') }, /annotation_ref must be an object ref/);
  await expect400({ ...ann, annotation_ref: REF('object/tone:d', 'x/y') }, /does not match project id/);
  await expect400({ ...ann, payload: { tone: 'calm' } }, /value is required/);
  await expect400(
    { ...base, annotation_ref: REF('object/tone:d') },
    'annotation_ref is not allowed for non-annotation feedback',
  );
});

test('runnable rules', async () => {
  const run = {
    ...base,
    feedback_type: 'wandb.runnable.judge',
    payload: { output: 1 },
    runnable_ref: REF('op/judge:d'),
    call_ref: REF('call/j'),
  };
  await expect400({ ...run, runnable_ref: undefined }, 'runnable_ref is required for runnable feedback');
  await expect400({ ...run, call_ref: undefined }, 'call_ref is required for runnable feedback on ops');
  await expect400({ ...run, runnable_ref: REF('op/other:d') }, 'runnable_ref must point to an object with name judge');
  await expect400({ ...run, runnable_ref: REF('table/t') }, /runnable_ref must be an op or object ref/);
  await expect400({ ...run, call_ref: REF('object/j:d') }, /call_ref must be a call ref/);
  await expect400({ ...run, payload: { result: 1 } }, /output is required/);
  for (const field of ['runnable_ref', 'call_ref', 'trigger_ref']) {
    const value = field === 'call_ref' ? REF('call/j') : REF(field === 'runnable_ref' ? 'op/judge:d' : 'object/t:d');
    await expect400({ ...base, [field]: value }, `${field} is not allowed for non-runnable feedback`);
  }
});

test('scorer_* fields only on runnable, agent-monitor and agent-user feedback (as the newest Weave)', async () => {
  const only =
    /^scorer_tags, scorer_tag_reasons, scorer_tag_confidences, scorer_ratings, scorer_rating_reasons, and scorer_rating_confidences are only allowed on wandb.agent_monitor, wandb.agent_user_feedback, or wandb.runnable feedback$/;
  await expect400({ ...base, scorer_tags: ['nsfw'] }, only);
  await expect400({ ...base, feedback_type: 'wandb.note.1', payload: { note: 'n' }, scorer_ratings: { q: 0.5 } }, only);
  await expect400(
    { ...base, feedback_type: 'wandb.agent_user_feedback' },
    'scorer_tags is required for agent user feedback',
  );
  // Empty lists and maps are as good as absent.
  assert.equal((await t.post('/feedback/create', { ...base, scorer_tags: [], scorer_ratings: {} })).status, 200);
  for (const feedback_type of ['wandb.agent_monitor', 'wandb.agent_user_feedback']) {
    const r = await t.post('/feedback/create', {
      ...base,
      feedback_type,
      scorer_tags: ['helpful'],
      scorer_tag_confidences: { helpful: 0.9 },
    });
    assert.equal(r.status, 200, r.text);
  }
  const batch = await t.post('/feedback/batch/create', {
    batch: [
      { ...base, feedback_type: 'wandb.agent_monitor', scorer_tags: ['x'] },
      { ...base, scorer_tags: ['x'] },
    ],
  });
  assert.equal(batch.status, 400, 'a batch is checked whole');
});

test('refs must parse and lie in the request project', async () => {
  await expect400({ ...base, weave_ref: 'not-a-ref' }, /Invalid ref: not-a-ref/);
  await expect400({ ...base, weave_ref: 'weave:///e/p/widget/x' }, /unknown ref kind/);
  await expect400({ ...base, weave_ref: REF('call/c1', 'other/project') }, /weave_ref .* does not match project id/);
  await expect400(
    {
      ...base,
      feedback_type: 'wandb.runnable.j',
      payload: { output: 1 },
      runnable_ref: REF('object/j:d'),
      trigger_ref: 'weave:///broken',
    },
    /Invalid ref: weave:\/\/\/broken/,
  );
});

test('payloads over 1 MiB are refused', async () => {
  await expect400({ ...base, payload: { blob: 'x'.repeat(1024 * 1024) } }, 'Feedback payload too large');
});

test('missing fields and wrong types are FastAPI-shaped 422s', async () => {
  const cases: [string, Record<string, unknown>, (string | number)[]][] = [
    ['/feedback/create', { ...base, weave_ref: undefined }, ['body', 'weave_ref']],
    ['/feedback/create', { ...base, payload: undefined }, ['body', 'payload']],
    ['/feedback/create', { ...base, feedback_type: 7 }, ['body', 'feedback_type']],
    ['/feedback/create', { ...base, payload: 'x' }, ['body', 'payload']],
    ['/feedback/create', { ...base, creator: 5 }, ['body', 'creator']],
    ['/feedback/create', { ...base, unknown_key: 1 }, ['body', 'unknown_key']],
    ['/feedback/create', { ...base, feedback_id: 'only-for-replace' }, ['body', 'feedback_id']],
    ['/feedback/batch/create', { batch: [{ ...base, extra: 1 }] }, ['body', 'batch', 0, 'extra']],
    [
      '/feedback/batch/create',
      { batch: [base, { ...base, project_id: undefined }] },
      ['body', 'batch', 1, 'project_id'],
    ],
    ['/feedback/batch/create', {}, ['body', 'batch']],
    ['/feedback/query', { project_id: PROJECT, fields: 'id' }, ['body', 'fields']],
    ['/feedback/query', { fields: ['id'] }, ['body', 'project_id']],
    ['/feedback/query', { project_id: PROJECT, limit: 'ten' }, ['body', 'limit']],
    ['/feedback/purge', { project_id: PROJECT, query: {} }, ['body', 'query', '$expr']],
  ];
  for (const [path, body, loc] of cases) {
    const r = await t.post(path, body);
    assert.equal(r.status, 422, `${path} ${JSON.stringify(body)} -> ${r.text}`);
    assert.ok(Array.isArray(r.body.detail), r.text);
    const [d] = r.body.detail;
    assert.deepEqual(d.loc, loc, r.text);
    assert.equal(typeof d.msg, 'string');
    assert.equal(typeof d.type, 'string');
  }
});

test('malformed JSON, empty and non-object bodies are 4xx with a JSON body', async () => {
  for (const path of [
    '/feedback/create',
    '/feedback/batch/create',
    '/feedback/query',
    '/feedback/purge',
    '/feedback/replace',
  ]) {
    for (const payload of ['{"project_id": ', 'not json', '']) {
      const r = await t.postRaw(path, payload);
      assert.ok(r.status >= 400 && r.status < 500, `${path} ${payload} -> ${r.status}`);
      assert.equal(typeof r.body, 'object', r.text);
    }
    for (const body of [[], 'text', 42, null]) {
      const r = await t.post(path, body);
      assert.ok(r.status === 400 || r.status === 422, `${path} ${JSON.stringify(body)} -> ${r.status} ${r.text}`);
      assert.equal(typeof r.body, 'object', r.text);
    }
  }
});
