// Monitors scoring calls as they finish, on either engine, with an LLM judge on a loopback
// OpenAI-compatible stand-in: objects as the Weave SDK publishes them (Monitor,
// LLMAsAJudgeScorer, LLMStructuredCompletionModel, a custom Provider); a matching call gets
// `wandb.runnable.<scorer>` feedback with the judge's verdict, its scorer call and the judge's
// model call nested under it; ops, queries and samples that do not match, and inactive
// monitors, queue nothing; a call ended twice is scored once; a provider's 503 is retried, a
// missing secret fails the job with the reason.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PROJECT, startTestApp, type TestApp } from './helpers/test-app.js';
import { end, endItem, start, startItem } from './helpers/calls.js';
import {
  createObj,
  eventually as waitFor,
  type Judge,
  publishJudge as publish,
  publishMonitor,
  startSignalsApp,
} from './helpers/signals.js';

const OP = `weave:///${PROJECT}/op/predict:abc123`;
const PROMPT = 'Question: {question}\nAnswer: {output}\nRate it.';
let judge: Judge;
let t: TestApp;

const publishJudge = (name: string, llm: string) => publish(t, name, llm, PROMPT);
const monitor = (id: string, scorers: string[], over: Record<string, unknown> = {}) =>
  publishMonitor(t, id, scorers, over);
const eventually = <T>(what: string, read: () => Promise<T | null>, ms?: number) =>
  waitFor(what, read, ms).catch(async (err: Error) => {
    throw new Error(`${err.message}: ${JSON.stringify(await t.store.scoreJobs.counts(PROJECT))}`);
  });

async function finishedCall(inputs: Record<string, unknown>, output: unknown, op = OP) {
  const s = start({ op, inputs });
  const r = await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(end(s.id, { output }))] });
  assert.equal(r.status, 200, r.text);
  return s;
}

const feedbackOn = async (callId: string) =>
  (
    await t.post('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${PROJECT}/call/${callId}` }] } },
    })
  ).body.result as any[];

before(async () => {
  ({ t, judge } = await startSignalsApp());
});
after(async () => {
  await t?.close();
  judge?.close();
});

test('a finished call of a monitored op is judged: feedback, scorer call, judge call', async () => {
  const scorer = await publishJudge('correctness', 'custom::judges::grader');
  const monitorRef = await monitor('quality', [scorer], {
    query: { $expr: { $eq: [{ $getField: 'inputs.lang' }, { $literal: 'en' }] } },
  });
  const judged = await finishedCall({ question: 'What is 2+2?', lang: 'en' }, '4');
  const otherOp = await finishedCall({ question: 'q', lang: 'en' }, 'x', `weave:///${PROJECT}/op/other:abc`);
  const filtered = await finishedCall({ question: 'q', lang: 'fr' }, 'x');

  const [fb] = await eventually('feedback', async () =>
    (await feedbackOn(judged.id)).length ? feedbackOn(judged.id) : null,
  );
  assert.equal(fb.feedback_type, 'wandb.runnable.correctness');
  assert.deepEqual(fb.payload, { output: { score: 0.9, reason: 'accurate' } });
  assert.equal(fb.runnable_ref, scorer);
  assert.equal(fb.trigger_ref, monitorRef);
  const judgeRequest = judge.asked.at(-1)!;
  assert.equal(judgeRequest.authorization, 'Bearer sk-judge');
  assert.equal(judgeRequest.body.model, 'grader');
  assert.deepEqual(judgeRequest.body.response_format, { type: 'json_object' });
  assert.equal(judgeRequest.body.temperature, 0);
  assert.deepEqual(judgeRequest.body.messages, [
    { role: 'system', content: 'You grade answers.' },
    { role: 'user', content: 'Question: What is 2+2?\nAnswer: 4\nRate it.' },
  ]);

  // The scorer's call, and the judge's model call under it (priced like any call).
  const scorerCallId = fb.call_ref.split('/').at(-1);
  const scorerCall = (await t.post('/call/read', { project_id: PROJECT, id: scorerCallId })).body.call;
  assert.equal(scorerCall.op_name, 'LLMAsAJudgeScorer.score');
  assert.deepEqual(scorerCall.output, { score: 0.9, reason: 'accurate' });
  const children = (await t.post('/calls/query', { project_id: PROJECT, filter: { parent_ids: [scorerCallId] } })).body
    .calls;
  assert.equal(children.length, 1);
  assert.equal(children[0].op_name, 'weave.completions_create');
  assert.equal(children[0].attributes.source, 'signals');
  assert.equal(children[0].summary.usage['judges/grader'].prompt_tokens, 40);

  // Other ops and calls the query leaves out: nothing queued, nothing written.
  assert.deepEqual(await feedbackOn(otherOp.id), []);
  assert.deepEqual(await feedbackOn(filtered.id), []);
  assert.deepEqual(await t.store.scoreJobs.counts(PROJECT), { queued: 0, running: 0, done: 1, failed: 0 });

  // The same call ended again: still one job, one feedback row.
  const again = await t.post('/call/end', { end: end(judged.id, { output: '4' }) });
  assert.equal(again.status, 200, again.text);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await feedbackOn(judged.id)).length, 1);
  assert.equal((await t.store.scoreJobs.counts(PROJECT)).done, 1);

  // Off: deactivated (a new version), the monitor scores nothing more.
  await monitor('quality', [scorer], { active: false });
  const later = await finishedCall({ question: 'q', lang: 'en' }, 'y');
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(await feedbackOn(later.id), []);
});

test('sampling 0 draws nothing; a 503 is retried; a missing secret fails the job, saying why', async () => {
  const scorer = await publishJudge('retry-judge', 'custom::judges::grader');
  await monitor('quality', [scorer], { active: false });
  await monitor('never', [scorer], { sampling_rate: 0, op_names: [`weave:///${PROJECT}/op/sampled:*`] });
  const unsampled = await finishedCall({ question: 'q' }, 'a', `weave:///${PROJECT}/op/sampled:1`);

  await monitor('retrying', [scorer], { op_names: [`weave:///${PROJECT}/op/flaky:*`] });
  judge.unavailable = 1;
  const flaky = await finishedCall({ question: 'q' }, 'a', `weave:///${PROJECT}/op/flaky:1`);
  const [fb] = await eventually(
    'feedback after a retry',
    async () => ((await feedbackOn(flaky.id)).length ? feedbackOn(flaky.id) : null),
    60_000,
  );
  assert.equal(fb.feedback_type, 'wandb.runnable.retry-judge');
  assert.equal(judge.unavailable, 0);

  const keyless = await publishJudge('keyless-judge', 'claude-sonnet-4-5');
  await monitor('keyless', [keyless], { op_names: [`weave:///${PROJECT}/op/keyless:*`] });
  const c = await finishedCall({ question: 'q' }, 'a', `weave:///${PROJECT}/op/keyless:1`);
  const failed = await eventually('a failed job', async () => {
    const n = (await t.store.scoreJobs.counts(PROJECT)).failed;
    return n > 0 ? n : null;
  });
  assert.equal(failed, 1);
  assert.deepEqual(await feedbackOn(c.id), []);
  assert.deepEqual(await feedbackOn(unsampled.id), []);
});

test('a server that scores nothing still queues; past the backlog, new calls are not queued', async () => {
  const quiet = await startTestApp({ signals: { concurrency: 0, backlog: 2 } });
  try {
    const scorer = await createObj(quiet, 'idle-judge', {
      _type: 'LLMAsAJudgeScorer',
      name: 'idle-judge',
      model: 'weave:///x/y/object/m:1',
      scoring_prompt: '{output}',
      _class_name: 'LLMAsAJudgeScorer',
      _bases: ['Scorer', 'Object', 'BaseModel'],
    });
    await publishMonitor(quiet, 'busy', [scorer]);
    const queued = async () => (await quiet.store.scoreJobs.counts(PROJECT)).queued;
    for (let i = 0; i < 4; i++) {
      const s = start({ op: OP, inputs: { i } });
      const r = await quiet.post('/call/upsert_batch', { batch: [startItem(s), endItem(end(s.id, { output: i }))] });
      assert.equal(r.status, 200, r.text);
      // Queued after the answer: the first two are waited for, the last two given time they do not use.
      if (i < 2) await waitFor(`job ${i + 1}`, async () => ((await queued()) === i + 1 ? true : null));
      else await new Promise((r) => setTimeout(r, 1000));
    }
    assert.deepEqual(await quiet.store.scoreJobs.counts(PROJECT), { queued: 2, running: 0, done: 0, failed: 0 });
  } finally {
    await quiet.close();
  }
});
