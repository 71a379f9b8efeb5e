// Debounced call monitors (`scorer_debounce_config`), on either engine: the calls of one trace
// (or thread) are scored once, on the last of them, after no newer call came within the
// timeout; `all_messages` shows the judge every call of the group, `last_message` the last.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { end, endItem, newId, start, startItem } from './helpers/calls.js';
import { eventually, type Judge, publishJudge, publishMonitor, startSignalsApp } from './helpers/signals.js';
import { PROJECT, type TestApp } from './helpers/test-app.js';

const OP = `weave:///${PROJECT}/op/chat:abc`;
let judge: Judge;
let t: TestApp;

before(async () => {
  ({ t, judge } = await startSignalsApp());
});
after(async () => {
  await t?.close();
  judge?.close();
});

/** Finished calls of `chat`, one a second apart, in one trace or thread. */
async function conversation(group: { trace_id?: string; thread_id?: string }, outputs: string[]) {
  const ids: string[] = [];
  const base = Date.now() - 60_000;
  for (const [i, output] of outputs.entries()) {
    const s = start({
      op: OP,
      inputs: { message: `m${i}` },
      started_at: new Date(base + i * 1000).toISOString(),
      ...group,
    });
    const r = await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(end(s.id, { output }))] });
    assert.equal(r.status, 200, r.text);
    ids.push(s.id);
  }
  return ids;
}

const feedbackCount = async (ids: string[]) => {
  const counts: number[] = [];
  for (const id of ids) {
    const r = await t.post('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${PROJECT}/call/${id}` }] } },
    });
    counts.push(r.body.result.length);
  }
  return counts;
};

test('a trace is scored once, on its last call, with every call of it in the prompt', async () => {
  const scorer = await publishJudge(t, 'whole', 'custom::judges::grader', 'All outputs: {output}');
  await publishMonitor(t, 'debounced', [scorer], {
    op_names: [`weave:///${PROJECT}/op/chat:*`],
    scorer_debounce_config: { aggregation_field: 'trace_id', aggregation_method: 'all_messages', timeout_seconds: 1 },
  });
  const asked = judge.asked.length;
  const ids = await conversation({ trace_id: newId() }, ['first', 'second', 'third']);
  await new Promise((r) => setTimeout(r, 400));
  assert.deepEqual(await feedbackCount(ids), [0, 0, 0], 'nothing before the timeout');
  await eventually('the last call scored', async () => ((await feedbackCount(ids))[2] === 1 ? true : null));
  await eventually('every job ended', async () =>
    (await t.store.scoreJobs.counts(PROJECT)).queued === 0 ? true : null,
  );
  assert.deepEqual(await feedbackCount(ids), [0, 0, 1]);
  assert.equal(judge.asked.length - asked, 1, 'one judge call for the trace');
  const prompt = judge.asked.at(-1)!.body.messages.at(-1).content;
  assert.equal(prompt, 'All outputs: ["first","second","third"]');
});

test('a thread with last_message: the last call alone; another thread apart', async () => {
  const scorer = await publishJudge(t, 'last', 'custom::judges::grader', 'Last: {output} after {message}');
  await publishMonitor(t, 'debounced', [scorer], {
    op_names: [`weave:///${PROJECT}/op/chat:*`],
    scorer_debounce_config: { aggregation_field: 'thread_id', aggregation_method: 'last_message', timeout_seconds: 1 },
  });
  const asked = judge.asked.length;
  const a = await conversation({ thread_id: 'thread-a' }, ['a1', 'a2']);
  const b = await conversation({ thread_id: 'thread-b' }, ['b1']);
  await eventually('both threads scored', async () => {
    const [x, y] = [await feedbackCount(a), await feedbackCount(b)];
    return x[1] === 1 && y[0] === 1 ? true : null;
  });
  await eventually('every job ended', async () =>
    (await t.store.scoreJobs.counts(PROJECT)).queued === 0 ? true : null,
  );
  assert.deepEqual(await feedbackCount(a), [0, 1]);
  assert.equal(judge.asked.length - asked, 2);
  const prompts = judge.asked
    .slice(asked)
    .map((q) => q.body.messages.at(-1).content)
    .sort();
  assert.deepEqual(prompts, ['Last: a2 after m1', 'Last: b1 after m0']);
});
