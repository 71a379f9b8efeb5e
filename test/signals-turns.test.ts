// Monitors scoring agent turns as they end (`weave.genai.turn_ended`), on either engine: a turn
// sent over /agents/otel/v1/traces whose root span ends is judged with its messages in the
// prompt; the verdict becomes `wandb.agent_monitor` feedback on the agent_turn ref with its
// rating or tags in the typed columns and the turn's span_* columns; a query on agent fields
// picks the turns; spans sent again score nothing twice; a verdict that is no score fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  agentTurn as turn,
  eventually,
  type Judge,
  publishJudge,
  publishMonitor,
  startSignalsApp,
} from './helpers/signals.js';
import { PROJECT, type TestApp } from './helpers/test-app.js';

const TURN_ENDED = 'weave.genai.turn_ended';
const PROMPT =
  'Agent {agent_name}.\nSystem: {system_instructions}\nUser said:\n{input_messages}\nAgent answered:\n{output_messages}';
let judge: Judge;
let t: TestApp;

before(async () => {
  ({ t, judge } = await startSignalsApp());
});
after(async () => {
  await t?.close();
  judge?.close();
});

const send = async (body: string) => {
  const r = await t.postRaw('/agents/otel/v1/traces', body, 'application/json');
  assert.equal(r.status, 200, r.text);
};

const turnFeedback = async (traceId: string) =>
  (
    await t.post('/feedback/query', {
      project_id: PROJECT,
      query: {
        $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${PROJECT}/agent_turn/${traceId}` }] },
      },
    })
  ).body.result as any[];

test('a finished turn is judged: agent_monitor feedback with its rating and the turn’s columns', async () => {
  const scorer = await publishJudge(t, 'satisfaction', 'custom::judges::grader', PROMPT);
  const monitorRef = await publishMonitor(t, 'signals', [scorer], {
    op_names: [TURN_ENDED],
    query: { $expr: { $eq: [{ $getField: 'agent_name' }, { $literal: 'support' }] } },
  });
  judge.verdict = JSON.stringify({ value: 0.75, reason: 'Helpful!', confidence: 0.9 });
  const scored = turn('support', 'Where is my order?', 'It ships tomorrow.');
  const other = turn('sales', 'Any discounts?', 'No.');
  await send(scored.body);
  await send(other.body);

  const [fb] = await eventually('turn feedback', async () => {
    const rows = await turnFeedback(scored.traceId);
    return rows.length > 0 ? rows : null;
  });
  assert.equal(fb.feedback_type, 'wandb.agent_monitor');
  assert.deepEqual(fb.payload, { output: { value: 0.75, reason: 'Helpful!', confidence: 0.9 } });
  assert.deepEqual(fb.scorer_ratings, { _rating_: 0.75 });
  assert.deepEqual(fb.scorer_rating_reasons, { _rating_: 'Helpful!' });
  assert.deepEqual(fb.scorer_rating_confidences, { _rating_: 0.9 });
  assert.equal(fb.trigger_ref, monitorRef);
  assert.equal(fb.runnable_ref, scorer);
  assert.equal(fb.span_agent_name, 'support');
  assert.equal(fb.span_trace_id, scored.traceId);
  assert.deepEqual(judge.asked.at(-1)!.body.messages.at(-1), {
    role: 'user',
    content:
      'Agent support.\nSystem: Be kind.\nUser said:\nuser: Where is my order?\nAgent answered:\nassistant: It ships tomorrow.',
  });
  // The chat view shows the signal on the turn.
  const chat = await t.post('/agents/traces/chat', {
    project_id: PROJECT,
    trace_id: scored.traceId,
    include_feedback: true,
  });
  assert.equal(chat.status, 200, chat.text);
  assert.ok(JSON.stringify(chat.body.feedback).includes('wandb.agent_monitor'));

  // The query left the sales agent out; the same spans sent again add nothing.
  await send(scored.body);
  await new Promise((r) => setTimeout(r, 400));
  assert.equal((await turnFeedback(scored.traceId)).length, 1);
  assert.deepEqual(await turnFeedback(other.traceId), []);
  assert.deepEqual(await t.store.scoreJobs.counts(PROJECT), { queued: 0, running: 0, done: 1, failed: 0 });
});

test('tags: normalized, sorted, at most ten; a verdict that is no score fails the job', async () => {
  const scorer = await publishJudge(t, 'frustration', 'custom::judges::grader', PROMPT);
  await publishMonitor(t, 'signals', [scorer], { op_names: [TURN_ENDED], query: null });
  judge.verdict = JSON.stringify({
    scores: [
      { value: 'User Frustration', reason: 'Asked <twice>' },
      { value: 'Low quality response' },
      { value: 'user frustration' },
    ],
  });
  const tagged = turn('support', 'Hello??', 'Hm.');
  await send(tagged.body);
  const [fb] = await eventually('tags', async () => {
    const rows = await turnFeedback(tagged.traceId);
    return rows.length > 0 ? rows : null;
  });
  assert.deepEqual(fb.scorer_tags, ['low-quality-response', 'user-frustration']);
  assert.deepEqual(fb.scorer_tag_reasons, { 'user-frustration': 'Asked twice' });

  judge.verdict = JSON.stringify({ value: 7 });
  const bad = turn('support', 'Hi', 'Hello');
  await send(bad.body);
  await eventually('a failed job', async () => ((await t.store.scoreJobs.counts(PROJECT)).failed > 0 ? true : null));
  assert.deepEqual(await turnFeedback(bad.traceId), []);
});
