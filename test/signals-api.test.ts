// The scoring routes, on either engine: the preset signals; /signals/publish writing a monitor
// and its scorer as the SDK would (presets, custom tags, own judge, remote), each mistake a 4xx;
// /signals/status saying ok, or error with the last error; /signals/backfill over stored turns
// and calls (an inactive monitor too; the same targets queued once); Weave's /calls/score and
// /actions/execute_batch scoring calls asynchronously; a tag signal that finds no tag writes
// no row.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { end, endItem, start, startItem } from './helpers/calls.js';
import { agentTurn, eventually, type Judge, startSignalsApp } from './helpers/signals.js';
import { PROJECT, type TestApp } from './helpers/test-app.js';

const MODEL = 'custom::judges::grader';
let judge: Judge;
let t: TestApp;

before(async () => {
  ({ t, judge } = await startSignalsApp());
});
after(async () => {
  await t?.close();
  judge?.close();
});

const ok = async (path: string, body: Record<string, unknown>) => {
  const r = await t.post(path, { project_id: PROJECT, ...body });
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  return r.body;
};
const send = async (body: string) => {
  const r = await t.postRaw('/agents/otel/v1/traces', body, 'application/json');
  assert.equal(r.status, 200, r.text);
};
const feedbackOn = async (ref: string) =>
  (
    await t.post('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: ref }] } },
    })
  ).body.result as any[];
const turnRef = (traceId: string) => `weave:///${PROJECT}/agent_turn/${traceId}`;
const callRef = (id: string) => `weave:///${PROJECT}/call/${id}`;
const rowsOf = (ref: string, n = 1) =>
  eventually(`${n} feedback on ${ref}`, async () => {
    const rows = await feedbackOn(ref);
    return rows.length >= n ? rows : null;
  });
const health = async (monitorId: string) =>
  ((await ok('/signals/status', {})).monitors as any[]).find((m) => m.monitor_id === monitorId) ?? null;
const readVal = async (ref: string) => {
  const [, id, digest] = /object\/([^:]+):(.+)$/.exec(ref)!;
  return (await ok('/obj/read', { object_id: id, digest })).obj.val;
};

async function finishedCall(inputs: Record<string, unknown>, output: unknown) {
  const s = start({ op: `weave:///${PROJECT}/op/predict:abc123`, inputs });
  const r = await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(end(s.id, { output }))] });
  assert.equal(r.status, 200, r.text);
  return s.id;
}

test('presets: four ratings and four tags, each prompt with the turn in it', async () => {
  const { presets } = await ok('/signals/presets', {});
  assert.deepEqual(
    presets.map((p: any) => [p.id, p.kind]),
    [
      ['user-satisfaction', 'rating'],
      ['user-good-intent', 'rating'],
      ['safe-for-work', 'rating'],
      ['response-quality', 'rating'],
      ['user-frustration', 'tags'],
      ['malicious-intent', 'tags'],
      ['nsfw', 'tags'],
      ['low-quality-response', 'tags'],
    ],
  );
  for (const p of presets) assert.match(p.scoring_prompt, /\{input_messages\}[\s\S]*\{output_messages\}/);
});

test('a published preset scores turns as they end; its status says ok', async () => {
  const out = await ok('/signals/publish', {
    name: 'frustration',
    target: 'agent_turn',
    scorer: { type: 'preset', preset: 'user-frustration', model: MODEL },
  });
  assert.match(out.monitor_ref, new RegExp(`^weave:///${PROJECT}/object/frustration:`));
  const monitor = await readVal(out.monitor_ref);
  assert.deepEqual(
    [monitor._type, monitor.op_names, monitor.scorers, monitor.active, monitor.sampling_rate],
    ['Monitor', ['weave.genai.turn_ended'], [out.scorer_ref], true, 1],
  );
  const scorer = await readVal(out.scorer_ref);
  assert.equal(scorer._type, 'LLMAsAJudgeScorer');
  assert.equal((await readVal(scorer.model)).llm_model_id, MODEL);

  judge.verdict = JSON.stringify({ scores: [{ value: 'user-frustration', reason: 'asked three times' }] });
  const asked = judge.asked.length;
  const turn = agentTurn('support', 'Why is my order STILL late??', 'Please wait.');
  await send(turn.body);
  const [fb] = await rowsOf(turnRef(turn.traceId));
  assert.deepEqual(fb.scorer_tags, ['user-frustration']);
  assert.equal(fb.trigger_ref, out.monitor_ref);
  const prompt = judge.asked[asked]!.body.messages.map((m: any) => m.content).join('\n');
  assert.match(prompt, /Why is my order STILL late\?\?/);
  assert.match(prompt, /user-frustration/);
  const h = await eventually('status ok', async () =>
    (await health('frustration'))?.status === 'ok' ? health('frustration') : null,
  );
  assert.equal(h.done, 1);
  assert.equal(h.last_error, null);
  assert.match(h.last_scored_at, /^\d{4}-\d\d-\d\dT/);

  // No tag found: the job is done, and no row is written.
  judge.verdict = JSON.stringify({ scores: [] });
  const calm = agentTurn('support', 'Thanks!', 'You are welcome.');
  await send(calm.body);
  await eventually('two done', async () => ((await health('frustration'))?.done === 2 ? true : null));
  assert.deepEqual(await feedbackOn(turnRef(calm.traceId)), []);
  await ok('/signals/publish', {
    name: 'frustration',
    target: 'agent_turn',
    active: false,
    scorer: { type: 'preset', preset: 'user-frustration', model: MODEL },
  });
});

test('a custom tag signal lists the tags and their definitions, and the tool calls when asked', async () => {
  const out = await ok('/signals/publish', {
    name: 'topics',
    target: 'agent_turn',
    active: false,
    scorer: {
      type: 'custom_tags',
      include_tool_calls: true,
      model: MODEL,
      tags: [
        { name: 'refund', definition: 'the user asks for money back' },
        { name: 'shipping', definition: 'the user asks where a parcel is' },
      ],
    },
  });
  const { scoring_prompt } = await readVal(out.scorer_ref);
  assert.match(scoring_prompt, /"refund": the user asks for money back/);
  assert.match(scoring_prompt, /"shipping": the user asks where a parcel is/);
  assert.match(scoring_prompt, /\{tool_calls\}/);
});

test('publish: each mistake is a 4xx naming it, and nothing is written', async () => {
  const before = (await ok('/objs/query', { filter: { latest_only: true } })).objs.length;
  const bad = async (body: Record<string, unknown>, status: number, text: RegExp) => {
    const r = await t.post('/signals/publish', { project_id: PROJECT, ...body });
    assert.equal(r.status, status, r.text);
    assert.match(r.text, text);
  };
  const judge = { type: 'judge', kind: 'rating', scoring_prompt: 'Rate {output}', model: MODEL };
  await bad(
    { name: 'x', target: 'agent_turn', scorer: { type: 'preset', preset: 'nope', model: MODEL } },
    422,
    /preset/,
  );
  await bad({ name: 'x', target: 'call', scorer: judge }, 422, /op_names/);
  await bad({ name: 'x', target: 'call', op_names: ['a/b'], scorer: judge }, 422, /op name/);
  await bad({ name: '-x', target: 'agent_turn', scorer: judge }, 422, /name/);
  await bad({ name: 'x', target: 'agent_turn', scorer: { ...judge, kind: 'score' } }, 422, /scorer/);
  await bad(
    {
      name: 'x',
      target: 'agent_turn',
      query: { $expr: { $eq: [{ $getField: 'no_such' }, { $literal: 1 }] } },
      scorer: judge,
    },
    422,
    /no_such/,
  );
  assert.equal((await ok('/objs/query', { filter: { latest_only: true } })).objs.length, before);
});

test('a judge that cannot run sets the status to error with the reason', async () => {
  await ok('/signals/publish', {
    name: 'keyless',
    target: 'agent_turn',
    scorer: { type: 'judge', kind: 'rating', scoring_prompt: 'Rate: {output_messages}', model: 'custom::nowhere::m' },
  });
  const turn = agentTurn('support', 'Hi', 'Hello');
  await send(turn.body);
  const h = await eventually('status error', async () =>
    (await health('keyless'))?.status === 'error' ? health('keyless') : null,
  );
  assert.match(h.last_error, /nowhere/);
  assert.match(h.last_error_at, /^\d{4}-/);
  assert.equal(h.last_scored_at, null);
  assert.deepEqual(await feedbackOn(turnRef(turn.traceId)), []);
  await ok('/signals/publish', {
    name: 'keyless',
    target: 'agent_turn',
    active: false,
    scorer: { type: 'judge', kind: 'rating', scoring_prompt: 'Rate: {output_messages}', model: 'custom::nowhere::m' },
  });
});

test('backfill: an inactive monitor over stored turns, by time or ids; a target is queued once', async () => {
  const before = new Date().toISOString();
  const turns = [agentTurn('triage', 'One', 'A'), agentTurn('triage', 'Two', 'B'), agentTurn('other', 'Three', 'C')];
  for (const x of turns) await send(x.body);
  const out = await ok('/signals/publish', {
    name: 'quality',
    target: 'agent_turn',
    active: false,
    query: { $expr: { $eq: [{ $getField: 'agent_name' }, { $literal: 'triage' }] } },
    scorer: { type: 'preset', preset: 'response-quality', model: MODEL },
  });
  judge.verdict = JSON.stringify({ value: 0.75, reason: 'fine' });
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(await feedbackOn(turnRef(turns[0]!.traceId)), [], 'inactive: nothing scored live');

  const first = await ok('/signals/backfill', {
    monitor_ref: 'quality',
    after: before,
    trace_ids: [turns[0]!.traceId],
  });
  assert.deepEqual(first, { matched: 1, queued: 1 });
  const all = await ok('/signals/backfill', { monitor_ref: out.monitor_ref, after: before });
  assert.deepEqual(all, { matched: 2, queued: 1 }, 'the filter keeps triage turns; one was queued already');
  for (const x of turns.slice(0, 2)) {
    const [fb] = await rowsOf(turnRef(x.traceId));
    assert.deepEqual(fb.scorer_ratings, { _rating_: 0.75 });
  }
  assert.deepEqual(await feedbackOn(turnRef(turns[2]!.traceId)), []);
  assert.deepEqual(await ok('/signals/backfill', { monitor_ref: 'quality', after: before }), { matched: 2, queued: 0 });

  const bad = async (body: Record<string, unknown>, status: number) => {
    const r = await t.post('/signals/backfill', { project_id: PROJECT, ...body });
    assert.equal(r.status, status, r.text);
  };
  await bad({ monitor_ref: 'no-such-monitor' }, 404);
  await bad({ monitor_ref: out.scorer_ref }, 422);
  await bad({ monitor_ref: 'quality', scorer_refs: [`weave:///${PROJECT}/object/other:abc`] }, 422);
  await bad({ monitor_ref: 'weave:///other/project/object/quality:abc' }, 422);
  await bad({ monitor_ref: 'quality', after: 'yesterday' }, 422);
});

test('calls: backfill, /calls/score and /actions/execute_batch score stored calls', async () => {
  const ids = [await finishedCall({ q: 'a' }, 'A'), await finishedCall({ q: 'b' }, 'B')];
  const out = await ok('/signals/publish', {
    name: 'exactness',
    target: 'call',
    op_names: ['predict'],
    active: false,
    scorer: { type: 'judge', kind: 'rating', scoring_prompt: 'Q: {q} A: {output}', model: MODEL },
  });
  judge.verdict = JSON.stringify({ score: 1, reason: 'exact' });
  assert.deepEqual(await ok('/signals/backfill', { monitor_ref: 'exactness', call_ids: [ids[0]!] }), {
    matched: 1,
    queued: 1,
  });
  const [fb] = await rowsOf(callRef(ids[0]!));
  assert.equal(fb.feedback_type, 'wandb.runnable.exactness-scorer');
  assert.equal(fb.trigger_ref, out.monitor_ref);

  // Weave's routes: each request is a run of its own; the same call scored again is a new row.
  assert.deepEqual(await ok('/calls/score', { call_ids: [ids[1]!], scorer_refs: [out.scorer_ref] }), {});
  assert.deepEqual(await ok('/calls/score', { call_ids: [ids[1]!], scorer_refs: [out.scorer_ref] }), {});
  const two = await rowsOf(callRef(ids[1]!), 2);
  assert.deepEqual(
    two.map((r) => [r.runnable_ref, r.trigger_ref]),
    [
      [out.scorer_ref, null],
      [out.scorer_ref, null],
    ],
  );
  assert.deepEqual(await ok('/actions/execute_batch', { action_ref: out.scorer_ref, call_ids: [ids[0]!] }), {});
  await rowsOf(callRef(ids[0]!), 2);
  assert.deepEqual(await ok('/actions/execute_batch', { action_ref: out.monitor_ref, call_ids: [ids[1]!] }), {});
  const three = await rowsOf(callRef(ids[1]!), 3);
  assert.equal(three.filter((r) => r.trigger_ref === out.monitor_ref).length, 1);

  const bad = async (path: string, body: Record<string, unknown>, status: number) => {
    const r = await t.post(path, { project_id: PROJECT, ...body });
    assert.equal(r.status, status, r.text);
  };
  await bad('/calls/score', { call_ids: [ids[0]!], scorer_refs: [out.monitor_ref] }, 422);
  await bad('/calls/score', { call_ids: [], scorer_refs: [out.scorer_ref] }, 422);
  await bad('/calls/score', { call_ids: [ids[0]!], scorer_refs: [`weave:///${PROJECT}/object/gone:abc`] }, 404);
  await bad('/actions/execute_batch', { action_ref: 'frustration', call_ids: [ids[0]!] }, 422);
});
