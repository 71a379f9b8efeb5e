// ClassifierMonitor, on either engine: its judges on one model are asked in one call, each a
// classifier named after its scorer and defined by its prompt; a turn gets a tag row for each
// classifier that matches (and none for the others), a call a row per classifier with its
// answer; a judge that leaves a classifier out fails the job and writes nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { end, endItem, start, startItem } from './helpers/calls.js';
import { agentTurn, eventually, type Judge, publishJudge, publishMonitor, startSignalsApp } from './helpers/signals.js';
import { PROJECT, type TestApp } from './helpers/test-app.js';

const MODEL = 'custom::judges::grader';
let judge: Judge;
let t: TestApp;
let scorers: string[];

before(async () => {
  ({ t, judge } = await startSignalsApp());
  scorers = [
    await publishJudge(t, 'frustration', MODEL, 'The user is annoyed or {angry}.'),
    await publishJudge(t, 'refund', MODEL, 'The user wants money back.'),
  ];
});
after(async () => {
  await t?.close();
  judge?.close();
});

const classifierMonitor = (id: string, over: Record<string, unknown>) =>
  publishMonitor(t, id, scorers, {
    _type: 'ClassifierMonitor',
    _class_name: 'ClassifierMonitor',
    _bases: ['Monitor', 'Object', 'BaseModel'],
    prompt_header: null,
    prompt_footer: null,
    ...over,
  });
const feedbackOn = async (ref: string) =>
  (
    await t.post('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: ref }] } },
      sort_by: [{ field: 'runnable_ref', direction: 'asc' }],
    })
  ).body.result as any[];
const answer = (frustration: boolean, refund: boolean) =>
  JSON.stringify({
    classifiers: {
      frustration: { is_match: frustration, confidence: 0.9, reason: 'Asked twice' },
      refund: { is_match: refund, confidence: 0.8, reason: 'No money mentioned' },
    },
  });

test('a turn: one judge call for both classifiers; a tag row for the one that matched', async () => {
  const monitorRef = await classifierMonitor('classes', { op_names: ['weave.genai.turn_ended'] });
  judge.verdict = answer(true, false);
  const asked = judge.asked.length;
  const turn = agentTurn('support', 'WHERE is my parcel, I asked before', 'Soon.');
  const r = await t.postRaw('/agents/otel/v1/traces', turn.body, 'application/json');
  assert.equal(r.status, 200, r.text);
  const ref = `weave:///${PROJECT}/agent_turn/${turn.traceId}`;
  const [row] = await eventually('a row', async () => {
    const rows = await feedbackOn(ref);
    return rows.length > 0 ? rows : null;
  });
  assert.deepEqual(
    [row.feedback_type, row.scorer_tags, row.scorer_tag_reasons, row.runnable_ref, row.trigger_ref],
    ['wandb.agent_monitor', ['frustration'], { frustration: 'Asked twice' }, scorers[0], monitorRef],
  );
  await eventually('the job ended', async () => ((await t.store.scoreJobs.counts(PROJECT)).done === 1 ? true : null));
  assert.equal((await feedbackOn(ref)).length, 1, 'no row for the classifier that did not match');
  assert.equal(judge.asked.length - asked, 1, 'one judge call');
  const prompt: string = judge.asked.at(-1)!.body.messages.at(-1).content;
  assert.match(prompt, /<classifier name="frustration">\nThe user is annoyed or \{angry\}\.\n<\/classifier>/);
  assert.match(prompt, /<classifier name="refund">/);
  assert.match(prompt, /WHERE is my parcel, I asked before/);
  assert.match(prompt, /\{"classifiers": \{"<classifier name>"/);
  await classifierMonitor('classes', { op_names: ['weave.genai.turn_ended'], active: false });
});

test('a call: a row per classifier with its answer; a judge that leaves one out fails the job', async () => {
  await classifierMonitor('call-classes', { op_names: [`weave:///${PROJECT}/op/predict:*`] });
  judge.verdict = answer(false, true);
  const done = (await t.store.scoreJobs.counts(PROJECT)).done;
  const call = async () => {
    const s = start({ op: `weave:///${PROJECT}/op/predict:abc`, inputs: { q: 'refund please' } });
    const r = await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(end(s.id, { output: 'ok' }))] });
    assert.equal(r.status, 200, r.text);
    return `weave:///${PROJECT}/call/${s.id}`;
  };
  const ref = await call();
  const rows = await eventually('two rows', async () => {
    const r = await feedbackOn(ref);
    return r.length === 2 ? r : null;
  });
  assert.deepEqual(
    rows.map((r) => [r.feedback_type, r.payload.output.is_match, r.runnable_ref]),
    [
      ['wandb.runnable.frustration', false, scorers[0]],
      ['wandb.runnable.refund', true, scorers[1]],
    ],
  );
  await eventually('the job ended', async () =>
    (await t.store.scoreJobs.counts(PROJECT)).done === done + 1 ? true : null,
  );

  judge.verdict = JSON.stringify({ classifiers: { frustration: { is_match: true } } });
  const partial = await call();
  await eventually('a failed job', async () => ((await t.store.scoreJobs.counts(PROJECT)).failed > 0 ? true : null));
  assert.deepEqual(await feedbackOn(partial), []);
  const h = ((await t.post('/signals/status', { project_id: PROJECT })).body.monitors as any[]).find(
    (m) => m.monitor_id === 'call-classes',
  );
  assert.equal(h.status, 'error');
  assert.match(h.last_error, /refund/);
});
