// The conversations page (/agents/spans/query grouped by conversation, latest activity first, no
// filter, or spans outside conversations left out and a filter such as an agent) has its own
// plan on each engine (storage/*/spans/conversation-page.ts): it must answer exactly what the
// general grouped read answers for the same spans. A filter that keeps every span, or the
// conversations' filter written as a double negation, sends the same request to the general
// read; the two are compared page by page, with spans outside any conversation, conversations
// tied on their latest activity, time bounds and measures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const NAME = `page-${hexId(4)}`;
const PROJECT = `acme/${NAME}`;
const T0 = Date.UTC(2026, 10, 22, 8);
const EVERY_SPAN = { $expr: { $not: [{ $eq: [{ $getField: 'span_name' }, { $literal: 'never' }] }] } };
const NOT_NULL = { $not: [{ $eq: [{ $getField: 'conversation_id' }, { $literal: null }] }] };
/** The same filter as NOT_NULL, in a shape the page's plan does not take: the general read answers. */
const NOT_NULL_GENERAL = { $not: [{ $not: [NOT_NULL] }] };

function span(conversation: string | null, startMs: number, endMs: number | undefined, tokens: number): TestSpan {
  return {
    traceId: hexId(16),
    spanId: hexId(8),
    name: 'chat gpt-4o',
    startMs,
    ...(endMs === undefined ? {} : { endMs }),
    attributes: {
      ...(conversation === null ? {} : { 'gen_ai.conversation.id': conversation }),
      'gen_ai.operation.name': 'chat',
      'gen_ai.agent.name': 'pager',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': tokens,
      'gen_ai.usage.output_tokens': 1,
    },
  };
}

async function page(body: Record<string, unknown>) {
  const r = await t.post('/agents/spans/query', { project_id: PROJECT, ...body });
  assert.equal(r.status, 200, r.text);
  return r.body as { groups: Record<string, unknown>[]; total_count: number };
}

test('the conversations page answers what the general grouped read answers', async () => {
  const spans: TestSpan[] = [];
  for (let i = 0; i < 23; i++) {
    const start = T0 + i * 60_000;
    spans.push(span(`c-${String(i).padStart(2, '0')}`, start, start + 5_000, 10 + i));
    // An early span that ends last: the activity is the end, not the start.
    if (i % 5 === 0) spans.push(span(`c-${String(i).padStart(2, '0')}`, start - 3_600_000, start + 30 * 60_000, 3));
  }
  // Three conversations end at the same instant: ties read by id.
  for (const c of ['tie-b', 'tie-a', 'tie-c']) spans.push(span(c, T0 + 7 * 60_000, T0 + 7 * 60_000 + 5_000, 5));
  // Spans outside any conversation form one group (key null); one is still open.
  spans.push(span(null, T0 + 11 * 60_000, T0 + 11 * 60_000 + 1_000, 7), span(null, T0 + 2 * 60_000, undefined, 2));
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson({ 'wandb.entity': 'acme', 'wandb.project': NAME }, spans),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);

  const measures = [{ alias: 'max_in', aggregation: 'max', value: { source: 'field', key: 'input_tokens' } }];
  const windows = [{}, { started_after: new Date(T0 + 6 * 60_000).toISOString() }];
  const NAMED = { $expr: { $not: [{ $eq: [{ $getField: 'conversation_id' }, { $literal: null }] }] } };
  const filters = [
    { fast: {}, general: { query: EVERY_SPAN } },
    { fast: { query: NAMED }, general: { query: { $expr: { $and: [NOT_NULL_GENERAL, EVERY_SPAN.$expr] } } } },
    {
      fast: { query: { $expr: { $and: [NAMED.$expr, EVERY_SPAN.$expr] } } },
      general: { query: { $expr: { $and: [NOT_NULL_GENERAL, EVERY_SPAN.$expr] } } },
    },
  ];
  for (const filter of filters)
    for (const window of windows)
      for (const limit of [4, 7, 50])
        for (let offset = 0; offset < 30; offset += limit) {
          const body = {
            group_by: [{ key: 'conversation_id' }],
            include_costs: true,
            measures,
            limit,
            offset,
            ...window,
          };
          const fast = await page({ ...body, ...filter.fast });
          const general = await page({ ...body, ...filter.general });
          assert.deepEqual(fast, general, JSON.stringify({ filter, window, limit, offset }));
          if (offset === 0 && limit === 50) {
            const outside = 'query' in filter.fast ? 0 : 1;
            assert.equal(fast.total_count, ('started_after' in window ? 17 + 3 : 23 + 3) + outside);
            assert.equal(
              fast.groups.some((g) => (g.group_keys as Record<string, unknown>).conversation_id === null),
              outside === 1,
            );
          }
        }
  // The order itself: latest activity first (c-00's early span ends 30 minutes after it began).
  const first = await page({ group_by: [{ key: 'conversation_id' }], limit: 5 });
  assert.deepEqual(
    first.groups.map((g) => (g.group_keys as Record<string, unknown>).conversation_id),
    ['c-20', 'c-15', 'c-10', 'c-05', 'c-00'],
  );
});

/** A turn of `agent` in `conversation`: its invocation and a model call, `endMs` after `startMs`. */
function agentTurn(agent: string, conversation: string, startMs: number, endMs: number, tokens: number): TestSpan[] {
  const traceId = hexId(16);
  const root = hexId(8);
  const base = { 'gen_ai.conversation.id': conversation, 'gen_ai.agent.name': agent };
  return [
    {
      traceId,
      spanId: root,
      name: `invoke_agent ${agent}`,
      startMs,
      endMs,
      attributes: { ...base, 'gen_ai.operation.name': 'invoke_agent' },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'chat gpt-4o',
      startMs: startMs + 10,
      endMs: endMs - 10,
      attributes: {
        ...base,
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': tokens % 2 === 0 ? 'gpt-4o' : 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': tokens,
        'gen_ai.usage.output_tokens': 1,
      },
    },
  ];
}

test("an agent's conversations page answers what the general grouped read answers", async () => {
  const name = `agent-page-${hexId(4)}`;
  const spans: TestSpan[] = [];
  // Conversations shared by two agents, some only one's; the agents' latest turns differ in time.
  for (let i = 0; i < 30; i++) {
    const c = `c-${String(i).padStart(2, '0')}`;
    const start = T0 + i * 60_000;
    if (i % 3 !== 2) spans.push(...agentTurn('alpha', c, start, start + 5_000, i));
    if (i % 2 === 0) spans.push(...agentTurn('beta', c, start + (i % 4) * 90_000, start + 200_000, i + 1));
  }
  // Ties on the latest activity, and a turn outside any conversation.
  for (const c of ['tie-b', 'tie-a']) spans.push(...agentTurn('alpha', c, T0 + 4 * 60_000, T0 + 4 * 60_000 + 5_000, 2));
  spans.push(
    ...agentTurn('alpha', 'x', T0, T0 + 1_000, 1).map((s) => ({
      ...s,
      attributes: { ...s.attributes, 'gen_ai.conversation.id': '' },
    })),
  );
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson({ 'wandb.entity': 'acme', 'wandb.project': name }, spans),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);
  const query = (filter: unknown, named: unknown) => ({ $expr: { $and: [named, filter] } });
  const ALPHA = { $eq: [{ $getField: 'owner_agent_name' }, { $literal: 'alpha' }] };
  const MINI = { $eq: [{ $getField: 'request_model' }, { $literal: 'gpt-4o-mini' }] };
  const counts: Record<string, number> = {};
  for (const [label, filter] of [
    ['alpha', ALPHA],
    ['mini', MINI],
  ] as const)
    for (const window of [{}, { started_after: new Date(T0 + 10 * 60_000).toISOString() }])
      for (const limit of [3, 8, 50])
        for (let offset = 0; offset < 40; offset += limit) {
          const body = { group_by: [{ key: 'conversation_id' }], include_costs: true, limit, offset, ...window };
          const fast = await t.post('/agents/spans/query', {
            project_id: `acme/${name}`,
            ...body,
            query: query(filter, NOT_NULL),
          });
          const general = await t.post('/agents/spans/query', {
            project_id: `acme/${name}`,
            ...body,
            query: query(filter, NOT_NULL_GENERAL),
          });
          assert.equal(fast.status, 200, fast.text);
          assert.deepEqual(fast.body, general.body, JSON.stringify({ label, window, limit, offset }));
          counts[`${label}${'started_after' in window ? '+window' : ''}`] = (
            fast.body as { total_count: number }
          ).total_count;
        }
  // alpha: i % 3 != 2 of 30 (20) and the two ties; after 10 minutes, i = 10..29 less seven (13).
  // gpt-4o-mini (odd tokens): alpha's odd i (10 of 15) and every beta turn (15); after 10
  // minutes, alpha's 13..27 (6) and beta's i = 10..28 (10).
  assert.deepEqual(counts, { alpha: 22, 'alpha+window': 13, mini: 25, 'mini+window': 16 });
});

test('the count follows spans re-sent under another conversation or none', async () => {
  const name = `moves-${hexId(4)}`;
  const send = async (spans: TestSpan[]) => {
    const r = await t.postRaw(
      '/agents/otel/v1/traces',
      otlpJson({ 'wandb.entity': 'acme', 'wandb.project': name }, spans),
      'application/json',
    );
    assert.equal(r.status, 200, r.text);
  };
  const counts = async () => {
    const r = await t.post('/agents/spans/query', {
      project_id: `acme/${name}`,
      group_by: [{ key: 'conversation_id' }],
      limit: 50,
    });
    assert.equal(r.status, 200, r.text);
    const body = r.body as { groups: { group_keys: { conversation_id: string | null } }[]; total_count: number };
    return { total: body.total_count, keys: body.groups.map((g) => g.group_keys.conversation_id).sort() };
  };
  const a = span('a', T0, T0 + 1_000, 1);
  const b1 = span('b', T0 + 2_000, T0 + 3_000, 1);
  const b2 = span('b', T0 + 4_000, T0 + 5_000, 1);
  await send([a, b1, b2]);
  assert.deepEqual(await counts(), { total: 2, keys: ['a', 'b'] });
  // One of b's two spans moves to a new conversation: b stays, c comes.
  const moved = (s: TestSpan, conversation: string | null) => ({
    ...s,
    ...span(conversation, s.startMs, s.endMs, 1),
    traceId: s.traceId,
    spanId: s.spanId,
  });
  await send([moved(b2, 'c')]);
  assert.deepEqual(await counts(), { total: 3, keys: ['a', 'b', 'c'] });
  // b's last span moves to a: b goes.
  await send([moved(b1, 'a')]);
  assert.deepEqual(await counts(), { total: 2, keys: ['a', 'c'] });
  // c's only span leaves every conversation: c goes, the spans outside any form one group.
  await send([moved(b2, null)]);
  assert.deepEqual(await counts(), { total: 2, keys: [null, 'a'].sort() as (string | null)[] });
});
