// /agents/search reads a common term newest first and a rare one term first (SQLite:
// storage/sqlite/spans/span-search.ts; ClickHouse has one plan). Whichever plan answers, pages
// of a few hits must add up to the one long page: each message once per conversation, at its
// first occurrence, newest first, the same conversations counted.
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

const T0 = Date.UTC(2026, 10, 21, 9);
const PROJECT = `plans-${hexId(4)}`;

interface Hit {
  span_id: string;
  trace_id: string;
  role: string;
  content_digest: string;
  content_preview: string;
  started_at: string;
}
interface Res {
  results: { conversation_id: string; matched_messages: Hit[] }[];
  total_conversations: number;
}

async function search(body: Record<string, unknown>): Promise<Res> {
  const r = await t.post('/agents/search', { project_id: `acme/${PROJECT}`, ...body });
  assert.equal(r.status, 200, r.text);
  return r.body as Res;
}

/** Turns whose model calls repeat the growing history: every message says "weather". */
function conversation(n: number): TestSpan[] {
  const spans: TestSpan[] = [];
  const history: { role: string; content: string }[] = [];
  for (let turn = 0; turn < 3; turn++) {
    const startMs = T0 + n * 60_000 + turn * 10_000;
    history.push({ role: 'user', content: `weather question ${n}.${turn}` });
    spans.push({
      traceId: hexId(16),
      spanId: hexId(8),
      name: 'chat gpt-4o',
      startMs,
      endMs: startMs + 500,
      attributes: {
        'gen_ai.conversation.id': `c-${n}`,
        'gen_ai.operation.name': 'chat',
        'gen_ai.input.messages': JSON.stringify(history),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', content: `weather answer ${n}.${turn}` }]),
      },
    });
    history.push({ role: 'assistant', content: `weather answer ${n}.${turn}` });
  }
  return spans;
}

const flat = (r: Res) =>
  r.results.flatMap((g) => g.matched_messages.map((h) => ({ ...h, conversation_id: g.conversation_id })));
const key = (h: Hit & { conversation_id: string }) => `${h.conversation_id}|${h.role}|${h.content_digest}`;

test('small pages of a common word add up to the long page, on either plan', async () => {
  const spans = Array.from({ length: 12 }, (_, n) => conversation(n)).flat();
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson({ 'wandb.entity': 'acme', 'wandb.project': PROJECT }, spans),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);

  for (const filter of [{}, { roles: ['assistant'] }, { started_after: new Date(T0 + 5 * 60_000).toISOString() }]) {
    const all = flat(await search({ query: 'weather', limit: 1000, ...filter }));
    // 12 conversations x 6 distinct messages, whatever the model calls repeated.
    const expected = 'roles' in filter ? 12 * 3 : 'started_after' in filter ? 7 * 6 : 12 * 6;
    assert.equal(all.length, expected, JSON.stringify(filter));
    assert.equal(new Set(all.map(key)).size, all.length);

    const paged: ReturnType<typeof flat> = [];
    let total = -1;
    for (let offset = 0; offset < all.length + 5; offset += 5) {
      const page = await search({ query: 'weather', limit: 5, offset, ...filter });
      paged.push(...flat(page));
      if (offset === 0) {
        total = page.total_conversations;
        // The first page holds the newest hits.
        const fifth = all
          .map((h) => h.started_at)
          .sort()
          .reverse()[4]!;
        for (const h of flat(page)) assert.ok(h.started_at >= fifth, `${h.started_at} < ${fifth}`);
      }
    }
    assert.equal(total, 'started_after' in filter ? 7 : 12);
    assert.deepEqual(paged.map(key).sort(), all.map(key).sort(), JSON.stringify(filter));
    // Each hit is the same occurrence on either plan.
    for (const h of paged) {
      const same = all.find((a) => key(a) === key(h))!;
      assert.equal(h.span_id, same.span_id);
    }
  }
  // The first question is repeated by all three model calls of its conversation: the first said it.
  const first = flat(await search({ query: '"weather question 0.0"' }));
  assert.deepEqual(
    first.map((h) => [h.role, h.span_id, h.started_at]),
    [['user', spans[0]!.spanId, new Date(spans[0]!.startMs).toISOString()]],
  );
});
