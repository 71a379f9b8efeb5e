// The real weave SDK end to end: Evaluation and EvaluationLogger.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertRanCleanly, eventually, runSdk, startWeftServer, type WeftServer } from './sdk-harness.js';
import { jsonl } from '../helpers/calls.js';

let w: WeftServer;
before(async () => {
  w = await startWeftServer();
});
after(async () => {
  await w.close();
});

const callsOf = async (project: string, body: Record<string, unknown> = {}) =>
  jsonl((await w.t.post('/calls/stream_query', { project_id: project, ...body })).text);
const nameOf = (c: { summary: { weave: { trace_name?: string; display_name?: string } }; op_name: string }) =>
  /\/op\/([^:]+):/.exec(c.op_name)?.[1] ?? c.op_name;

test('an Evaluation with two scorers: every predict-and-score under evaluate, row refs resolve to rows', async () => {
  const project = 'sdk-e2e/evaluation';
  const run = await runSdk(
    w.url,
    project,
    `
  const rows = [
    { question: 'capital of France?', expected: 'Paris' },
    { question: 'capital of Spain?', expected: 'Madrid' },
    { question: 'capital of Japan?', expected: 'Kyoto' },
  ];
  const answers = { 'capital of France?': 'Paris', 'capital of Spain?': 'Madrid', 'capital of Japan?': 'Tokyo' };
  const dataset = new weave.Dataset({ name: 'eval-dataset', rows });
  const fakeModel = weave.op(async function fakeModel({ datasetRow }) { return answers[datasetRow.question]; });
  const exactMatch = weave.op(function exactMatch({ modelOutput, datasetRow }) { return modelOutput === datasetRow.expected; });
  const lengthScore = weave.op(function lengthScore({ modelOutput }) { return { chars: modelOutput.length, long: modelOutput.length > 5 }; });
  const evaluation = new weave.Evaluation({ name: 'capitals-eval', dataset, scorers: [exactMatch, lengthScore] });
  out.summary = await evaluation.evaluate({ model: fakeModel, maxConcurrency: 2 });
  `,
  );
  assertRanCleanly(run);
  const calls = await eventually(
    async () => {
      const c = await callsOf(project);
      return c.length === 13 && c.every((x) => x.ended_at) ? c : null;
    },
    '13 ended calls (1 evaluate + 3 x (predictAndScore + model + 2 scorers))',
    20_000,
  );
  const evaluate = calls.filter((c) => nameOf(c) === 'Evaluation.evaluate');
  assert.equal(evaluate.length, 1);
  const root = evaluate[0];
  assert.equal(root.parent_id, null);
  const pas = calls.filter((c) => c.parent_id === root.id && nameOf(c) === 'Evaluation.predictAndScore');
  assert.equal(pas.length, 3);
  assert.ok(calls.every((c) => c.trace_id === root.trace_id));
  const expectedByQuestion: Record<string, string> = {};
  for (const p of pas) {
    const kids = calls
      .filter((c) => c.parent_id === p.id)
      .map(nameOf)
      .sort();
    assert.deepEqual(kids, ['exactMatch', 'fakeModel', 'lengthScore']);
    const rowRef: string = p.inputs.example;
    assert.match(rowRef, /\/object\/eval-dataset:[A-Za-z0-9]+\/attr\/rows\/id\/[A-Za-z0-9]+$/);
    const r = await w.t.post('/refs/read_batch', { refs: [rowRef] });
    assert.equal(r.status, 200, r.text);
    const row = r.body.vals[0];
    assert.ok(row.question && row.expected, JSON.stringify(row));
    expectedByQuestion[row.question] = row.expected;
    assert.equal(p.output.scores.exactMatch, p.output.model_output === row.expected);
  }
  assert.deepEqual(expectedByQuestion, {
    'capital of France?': 'Paris',
    'capital of Spain?': 'Madrid',
    'capital of Japan?': 'Kyoto',
  });
  assert.equal(root.output.exactMatch.true_count, 2);
  assert.deepEqual(run.result.summary.exactMatch, root.output.exactMatch);
});

test('an EvaluationLogger run: scorer feedback lands on the right calls, visible with include_feedback', async () => {
  const project = 'sdk-e2e/eval-logger';
  const run = await runSdk(
    w.url,
    project,
    `
  const ev = new weave.EvaluationLogger({ name: 'logger-eval', model: { name: 'my-model' }, dataset: 'inline-dataset', attributes: { experiment: 'e1' } });
  const p1 = await ev.logPrediction({ q: 'a' }, 'A');
  await p1.logScore('accuracy', 1);
  await p1.logScore('relevant', true);
  await p1.finish();
  const p2 = await ev.logPrediction({ q: 'b' }, 'B');
  await p2.logScore('accuracy', 0.5);
  await p2.finish();
  await ev.logSummary();
  `,
  );
  assertRanCleanly(run);
  const fb = await eventually(async () => {
    const r = (await w.t.post('/feedback/query', { project_id: project })).body.result;
    return r.length === 3 ? r : null;
  }, 'three feedback rows');
  assert.deepEqual(fb.map((f: { feedback_type: string }) => f.feedback_type).sort(), [
    'wandb.runnable.accuracy',
    'wandb.runnable.accuracy',
    'wandb.runnable.relevant',
  ]);
  const calls = await eventually(async () => {
    const c = await callsOf(project, { include_feedback: true });
    return c.length > 0 && c.every((x) => x.ended_at) && c.some((x) => x.summary.weave.feedback.length > 0) ? c : null;
  }, 'calls with feedback');
  for (const f of fb) {
    const target = calls.find((c) => f.weave_ref === `weave:///${project}/call/${c.id}`);
    assert.ok(target, `feedback ${f.id} points at a stored call`);
    assert.ok(
      target.summary.weave.feedback.some((x: { id: string }) => x.id === f.id),
      'include_feedback shows it',
    );
    const scorer = calls.find((c) => f.call_ref === `weave:///${project}/call/${c.id}`);
    assert.ok(scorer, 'call_ref points at the scorer call');
    assert.equal(scorer.parent_id, target.parent_id ?? target.id);
  }
  const scored = calls.filter((c) => c.summary.weave.feedback.length > 0);
  const outputs = scored
    .flatMap((c) => c.summary.weave.feedback.map((x: { payload: { output: unknown } }) => x.payload.output))
    .sort();
  assert.deepEqual(outputs, [0.5, 1, true].sort());
});
