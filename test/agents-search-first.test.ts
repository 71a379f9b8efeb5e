// /agents/search keeps each message once per conversation, at its first occurrence (its time,
// span and agent), through HTTP on either engine: a message the later turns repeat is found once,
// at the turn that said it; a span sent again without it hands it to its next occurrence; a
// turn whose root arrives after its model calls moves their messages into its conversation;
// and a retention purge of the first turn leaves the message findable at its next occurrence.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { hexId, type TestSpan } from './helpers/agent-spans.js';
import { searchProject } from './helpers/search-project.js';
import { startRetentionJob } from '../src/service/retention/retention-job.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const DAY_MS = 86_400_000;

interface Hit {
  span_id: string;
  trace_id: string;
  role: string;
  started_at: string;
  content_preview: string;
}

function project() {
  const p = searchProject(t, 'first');
  return {
    ...p,
    async hits(body: Record<string, unknown>): Promise<(Hit & { conversation_id: string })[]> {
      const r = (await p.search(body)) as { results: { conversation_id: string; matched_messages: Hit[] }[] };
      return r.results.flatMap((c) => c.matched_messages.map((m) => ({ ...m, conversation_id: c.conversation_id })));
    },
  };
}

/** A turn: an agent span asking `ask` and a model call repeating `history` then `ask`, answering `answer`. */
function turn(o: {
  conv: string | null;
  agent: string;
  history: string[];
  ask: string;
  answer: string;
  startMs: number;
  /** Only the model call carries the conversation (the root names it: Strands' way). */
  rootOnly?: boolean;
}) {
  const traceId = hexId(16);
  const rootId = hexId(8);
  const conv: Record<string, string> = o.conv === null ? {} : { 'gen_ai.conversation.id': o.conv };
  const messages = [...o.history, o.ask].map((content, i, all) => ({
    role: (all.length - 1 - i) % 2 === 0 ? 'user' : 'assistant',
    content,
  }));
  const root: TestSpan = {
    traceId,
    spanId: rootId,
    name: `invoke_agent ${o.agent}`,
    startMs: o.startMs,
    endMs: o.startMs + 900,
    attributes: {
      ...conv,
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': o.agent,
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: o.ask }]),
    },
  };
  const chat: TestSpan = {
    traceId,
    spanId: hexId(8),
    parentSpanId: rootId,
    name: 'chat gpt-4o',
    startMs: o.startMs + 100,
    endMs: o.startMs + 600,
    attributes: {
      ...(o.rootOnly ? {} : conv),
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.input.messages': JSON.stringify(messages),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', content: o.answer }]),
    },
  };
  return { traceId, root, chat, spans: [root, chat] };
}

const iso = (ms: number) => new Date(ms).toISOString();

test('a message repeated by later turns is found once, at its first time, span and agent', async () => {
  const p = project();
  const T0 = Date.UTC(2026, 10, 22, 8);
  const one = turn({
    conv: 'c-1',
    agent: 'planner',
    history: [],
    ask: 'Plan a trip to Zanzibar',
    answer: 'Sure: when?',
    startMs: T0,
  });
  const two = turn({
    conv: 'c-1',
    agent: 'booker',
    history: ['Plan a trip to Zanzibar', 'Sure: when?'],
    ask: 'In May',
    answer: 'Booked for May.',
    startMs: T0 + 60_000,
  });
  await p.send(two.spans);
  await p.send(one.spans);
  const hits = await p.hits({ query: 'zanzibar' });
  assert.deepEqual(
    hits.map((h) => [h.conversation_id, h.role, h.span_id, h.started_at]),
    [['c-1', 'user', one.root.spanId, iso(T0)]],
    'said first by the first turn (sent last), repeated by three spans',
  );
  assert.deepEqual(
    (await p.hits({ query: 'sure' })).map((h) => [h.span_id, h.started_at]),
    [[one.chat.spanId, iso(T0 + 100)]],
  );
  // Filters see the first occurrence: its time, its agent.
  assert.equal((await p.hits({ query: 'zanzibar', started_after: iso(T0 + 1000) })).length, 0);
  assert.equal((await p.hits({ query: 'zanzibar', agent_name: 'booker' })).length, 0);
  assert.equal((await p.hits({ query: 'zanzibar', agent_name: 'planner' })).length, 1);
  assert.equal((await p.hits({ query: 'zanzibar', trace_id: two.traceId })).length, 0);
  // Another conversation saying it has its own first occurrence.
  const other = turn({
    conv: 'c-2',
    agent: 'planner',
    history: [],
    ask: 'Plan a trip to Zanzibar',
    answer: 'Ok',
    startMs: T0 + 120_000,
  });
  await p.send(other.spans);
  const both = await p.hits({ query: 'zanzibar' });
  assert.deepEqual(
    both.map((h) => [h.conversation_id, h.span_id]),
    [
      ['c-2', other.root.spanId],
      ['c-1', one.root.spanId],
    ],
  );
});

test('a span sent again without the message hands it to its next occurrence; a late root moves messages', async () => {
  const p = project();
  const T0 = Date.UTC(2026, 10, 22, 9);
  const one = turn({ conv: 'c-r', agent: 'helper', history: [], ask: 'Refund order 42', answer: 'Done.', startMs: T0 });
  const two = turn({
    conv: 'c-r',
    agent: 'helper',
    history: ['Refund order 42', 'Done.'],
    ask: 'Thanks',
    answer: 'Welcome.',
    startMs: T0 + 60_000,
  });
  await p.send([...one.spans, ...two.spans]);
  const where = async () => (await p.hits({ query: 'refund' })).map((h) => [h.span_id, h.started_at]);
  assert.deepEqual(await where(), [[one.root.spanId, iso(T0)]]);
  const without = (s: TestSpan): TestSpan => ({
    ...s,
    attributes: { ...s.attributes, 'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: 'Hello' }]) },
  });
  await p.send([without(one.root)]);
  assert.deepEqual(await where(), [[one.chat.spanId, iso(T0 + 100)]], 'the same turn, its model call');
  await p.send([without(one.chat)]);
  assert.deepEqual(await where(), [[two.chat.spanId, iso(T0 + 60_100)]], 'the next turn');
  await p.send([one.root]);
  assert.deepEqual(await where(), [[one.root.spanId, iso(T0)]], 'sent back: first again');

  // The model call arrives first, with no conversation; its root names one later.
  const late = turn({
    conv: 'c-late',
    agent: 'helper',
    history: [],
    ask: 'Where is Timbuktu?',
    answer: 'In Mali.',
    startMs: T0 + 120_000,
    rootOnly: true,
  });
  await p.send([late.chat]);
  assert.deepEqual(
    (await p.hits({ query: 'mali' })).map((h) => h.conversation_id),
    ['__NO_CONVERSATION__'],
  );
  await p.send([late.root]);
  const moved = await p.hits({ query: 'timbuktu' });
  assert.deepEqual(
    moved.map((h) => [h.conversation_id, h.span_id]),
    [['c-late', late.root.spanId]],
  );
  assert.deepEqual(
    (await p.hits({ query: 'mali', conversation_id: 'c-late' })).map((h) => h.span_id),
    [late.chat.spanId],
  );
  const r = await t.post('/agents/search', { project_id: p.id, query: 'mali' });
  assert.equal(r.body.total_conversations, 1, 'nothing left outside the conversation');
});

test('a purge of the first turn keeps a repeated message findable at its next occurrence', async () => {
  const p = project();
  const now = Date.now();
  const one = turn({
    conv: 'c-p',
    agent: 'helper',
    history: [],
    ask: 'Ship the quetzal order',
    answer: 'Shipped on Monday.',
    startMs: now - 3 * DAY_MS,
  });
  const two = turn({
    conv: 'c-p',
    agent: 'helper',
    history: ['Ship the quetzal order', 'Shipped on Monday.'],
    ask: 'Track it',
    answer: 'It is in Lima.',
    startMs: now - 60_000,
  });
  const alone = turn({
    conv: 'c-q',
    agent: 'helper',
    history: [],
    ask: 'A quetzal feather?',
    answer: 'No.',
    startMs: now - 2 * DAY_MS,
  });
  await p.send([...one.spans, ...two.spans, ...alone.spans]);
  assert.deepEqual(
    (await p.hits({ query: 'quetzal' })).map((h) => h.span_id),
    [alone.root.spanId, one.root.spanId],
  );
  const ttl = await t.post('/project/ttl_settings/update', { project_id: p.id, retention_days: 1 });
  assert.equal(ttl.status, 200, ttl.text);
  const job = startRetentionJob(t.store, { intervalMs: 0 });
  assert.equal(await job.runOnce(), 4);
  await job.stop();
  const left = await p.hits({ query: 'quetzal' });
  assert.deepEqual(
    left.map((h) => [h.conversation_id, h.span_id, h.started_at]),
    [['c-p', two.chat.spanId, iso(now - 60_000 + 100)]],
    'the model call of the second turn repeats it; the purged conversation c-q is gone',
  );
  assert.deepEqual(
    (await p.hits({ query: 'monday' })).map((h) => h.span_id),
    [two.chat.spanId],
  );
  const r = await t.post('/agents/search', { project_id: p.id, query: 'quetzal' });
  assert.equal(r.body.total_conversations, 1);
});
