// Sorting calls by what the calls table shows in its Tokens, Cost and Feedback columns:
// summary.weave.total_tokens and summary.weave.total_cost (ranked by the service, priced as
// include_costs prices) and feedback.[<type>].count (printed by each engine). Weft's own
// fields; through /calls/stream_query and /calls/query, on every engine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem, jsonl } from './helpers/calls.js';

let t: TestApp;
const ids: Record<string, string> = {};

/** Usage by call label; calls start in this order, a second apart. */
const USAGE: Record<string, Record<string, unknown> | null> = {
  A: { 'weft-model-a': { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 } },
  B: { 'weft-model-a': { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010 } },
  // Anthropic's shape: no total, input and output counted.
  C: { 'weft-model-b': { input_tokens: 300, output_tokens: 300 } },
  // No price anywhere: tokens, but no cost.
  D: { 'weft-unpriced-model': { prompt_tokens: 5000, completion_tokens: 5000, total_tokens: 10000 } },
  E: null,
  F: {
    'weft-model-a': { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    'weft-model-b': { prompt_tokens: 10, completion_tokens: 0, total_tokens: 10 },
  },
  G: { 'weft-model-a': { prompt_tokens: 150, completion_tokens: 0, total_tokens: 150 } },
};
const LABELS = Object.keys(USAGE);
const label = (id: string) => LABELS.find((l) => ids[l] === id) ?? id;

before(async () => {
  t = await startTestApp();
  const prices = {
    'weft-model-a': { prompt_token_cost: 1e-6, completion_token_cost: 2e-6 },
    'weft-model-b': { prompt_token_cost: 1e-5, completion_token_cost: 1e-5 },
  };
  const p = await t.post('/cost/create', { project_id: PROJECT, costs: prices });
  assert.equal(p.status, 200, p.text);
  const batch = LABELS.flatMap((l, i) => {
    const s = start({ started_at: new Date(Date.UTC(2026, 10, 28, 9, 0, i)).toISOString(), inputs: { l } });
    ids[l] = s.id;
    const usage = USAGE[l];
    const e = end(s.id, {
      ended_at: new Date(Date.UTC(2026, 10, 28, 9, 0, i, 500)).toISOString(),
      summary: usage === null ? {} : { usage },
    });
    return [startItem(s), endItem(e)];
  });
  const r = await t.post('/call/upsert_batch', { batch });
  assert.equal(r.status, 200, r.text);
  const feedback: [string, string, Record<string, unknown>][] = [
    ['A', 'wandb.reaction.1', { emoji: '👍' }],
    ['A', 'wandb.reaction.1', { emoji: '👍' }],
    ['B', 'wandb.note.1', { note: 'check this' }],
    ['C', 'wandb.reaction.1', { emoji: '👍' }],
    ['C', 'wandb.reaction.1', { emoji: '👎' }],
    ['C', 'wandb.note.1', { note: 'wrong' }],
  ];
  for (const [l, feedback_type, payload] of feedback) {
    const f = await t.post('/feedback/create', {
      project_id: PROJECT,
      weave_ref: `weave:///${PROJECT}/call/${ids[l]}`,
      feedback_type,
      payload,
    });
    assert.equal(f.status, 200, f.text);
  }
});
after(async () => {
  await t.close();
});

type Sort = { field: string; direction: 'asc' | 'desc' }[];

/** The labels of our calls in the order the server returns them. */
async function order(sort_by: Sort, extra: Record<string, unknown> = {}, route = '/calls/stream_query') {
  const r = await t.post(route, {
    project_id: PROJECT,
    filter: { call_ids: Object.values(ids) },
    sort_by,
    ...extra,
  });
  assert.equal(r.status, 200, r.text);
  const calls = route === '/calls/query' ? r.body.calls : jsonl(r.text);
  return (calls as { id: string }[]).map((c) => label(c.id)).join('');
}

test('total tokens: reported totals, else input plus output; ties by the rest of sort_by; none last', async () => {
  const desc = [{ field: 'summary.weave.total_tokens', direction: 'desc' as const }];
  const asc = [{ field: 'summary.weave.total_tokens', direction: 'asc' as const }];
  // D 10000, B 1010, C 600, G = A 150 (newest first when nothing else is asked), F 30, E none.
  assert.equal(await order(desc), 'DBCGAFE');
  assert.equal(await order(asc), 'FGACBDE');
  assert.equal(await order([...desc, { field: 'started_at', direction: 'asc' }]), 'DBCAGFE');
  assert.equal(await order(desc, {}, '/calls/query'), 'DBCGAFE');
});

test('total cost: priced as include_costs prices, the unpriced last', async () => {
  const r = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    filter: { call_ids: Object.values(ids) },
    sort_by: [{ field: 'summary.weave.total_cost', direction: 'desc' }],
    include_costs: true,
  });
  assert.equal(r.status, 200, r.text);
  const calls = jsonl(r.text) as { id: string; summary: { weave: { costs?: Record<string, any> } } }[];
  // C 6e-3, B 1.02e-3, A 2e-4, G 1.5e-4, F 1.3e-4; D and E priced nothing (newest first).
  assert.equal(calls.map((c) => label(c.id)).join(''), 'CBAGFED');
  const shown = calls.map((c) =>
    c.summary.weave.costs === undefined
      ? null
      : Object.values(c.summary.weave.costs).reduce(
          (s, b) => s + b.prompt_tokens_total_cost + b.completion_tokens_total_cost,
          0,
        ),
  );
  const expected = [6e-3, 1.02e-3, 2e-4, 1.5e-4, 1.3e-4, null, null];
  shown.forEach((v, i) => {
    const want = expected[i]!;
    if (want === null) assert.equal(v, null);
    else assert.ok(v !== null && Math.abs(v - want) < 1e-12, `${label(calls[i]!.id)}: ${v} != ${want}`);
  });
  assert.equal(await order([{ field: 'summary.weave.total_cost', direction: 'asc' }]), 'FGABCED');
});

test('pages of a derived sort add up to the whole order; filters apply before ranking', async () => {
  const sort_by = [{ field: 'summary.weave.total_cost', direction: 'desc' as const }];
  let pages = '';
  for (let offset = 0; offset < 8; offset += 3) pages += await order(sort_by, { limit: 3, offset });
  assert.equal(pages, 'CBAGFED');
  assert.equal(await order(sort_by, { limit: 2, offset: 1 }), 'BA');
  const r = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    filter: { call_ids: [ids.A, ids.B, ids.D] },
    query: { $expr: { $not: [{ $eq: [{ $getField: 'id' }, { $literal: ids.B }] }] } },
    sort_by,
    columns: ['id', 'inputs'],
  });
  assert.equal(r.status, 200, r.text);
  const calls = jsonl(r.text) as { id: string; inputs: { l: string } }[];
  assert.deepEqual(
    calls.map((c) => c.inputs.l),
    ['A', 'D'],
  );
});

test('the pages after a first page keep its order while calls arrive; a first page ranks afresh', async () => {
  const sort_by = [{ field: 'summary.weave.total_tokens', direction: 'desc' as const }];
  const project = 'test-entity/paging';
  const page = async (offset: number) => {
    const r = await t.post('/calls/stream_query', { project_id: project, sort_by, limit: 2, offset });
    assert.equal(r.status, 200, r.text);
    return (jsonl(r.text) as { inputs: { n: number } }[]).map((c) => c.inputs.n);
  };
  const log = async (n: number) => {
    const s = start({ project_id: project, inputs: { n } });
    const e = end(s.id, { project_id: project, summary: { usage: { 'weft-model-a': { total_tokens: n } } } });
    const r = await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(e)] });
    assert.equal(r.status, 200, r.text);
  };
  for (const n of [40, 30, 20, 10]) await log(n);
  assert.deepEqual(await page(0), [40, 30]);
  await log(100);
  // The second page is cut from the first page's ranking: no call seen twice, none skipped.
  assert.deepEqual(await page(2), [20, 10]);
  assert.deepEqual(await page(0), [100, 40]);
  assert.deepEqual(await page(2), [30, 20]);
});

test('feedback count: any type or one type, sorted and filtered by each engine', async () => {
  const byCount = [
    { field: 'feedback.[*].count', direction: 'desc' as const },
    { field: 'started_at', direction: 'asc' as const },
  ];
  assert.equal(await order(byCount), 'CABDEFG');
  assert.equal(
    await order([
      { field: 'feedback.[wandb.note.1].count', direction: 'desc' },
      { field: 'started_at', direction: 'desc' },
    ]),
    'CBGFEDA',
  );
  const twoReactions = {
    query: {
      $expr: { $gte: [{ $getField: 'feedback.[wandb.reaction.1].count' }, { $literal: 2 }] },
    },
  };
  assert.equal(await order([{ field: 'started_at', direction: 'asc' }], twoReactions), 'AC');
  const none = { query: { $expr: { $eq: [{ $getField: 'feedback.[*].count' }, { $literal: 0 }] } } };
  assert.equal(await order([{ field: 'started_at', direction: 'asc' }], none), 'DEFG');
});

test('a derived sort field anywhere but first in sort_by, or in a filter, is a 422 saying so', async () => {
  const second = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    sort_by: [
      { field: 'started_at', direction: 'desc' },
      { field: 'summary.weave.total_cost', direction: 'desc' },
    ],
  });
  assert.equal(second.status, 422, second.text);
  assert.match(second.text, /summary\.weave\.total_cost can only be the first sort_by term/);
  const filtered = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    query: { $expr: { $gt: [{ $getField: 'summary.weave.total_tokens' }, { $literal: 1 }] } },
  });
  assert.equal(filtered.status, 422, filtered.text);
  assert.match(filtered.text, /summary\.weave\.total_tokens/);
  const badTail = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    sort_by: [{ field: 'feedback.[*].counts', direction: 'desc' }],
  });
  assert.equal(badTail.status, 422, badTail.text);
});
