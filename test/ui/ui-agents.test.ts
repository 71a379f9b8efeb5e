// The Agents views in Chromium, over GenAI spans sent as an exporter sends them: the agent
// cards (figures by value), an agent's versions side by side and its conversations, the
// conversations list with filters and a search whose matches are marked, a conversation as a
// chat with a turn's spans as a waterfall, and a 1,000-turn conversation that shows its first
// turns at once and renders only what is on screen. Both themes are screenshotted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { hexId, otlpJson, type TestSpan } from '../helpers/agent-spans.js';
import { launch, openPage, shot } from './browser.js';

const ENTITY = 'ui-team';
const NAME = 'agents';
const BASE = `/ui/${ENTITY}/${NAME}`;
let w: WeftServer;
let browser: Browser;
const NOW = Date.now();
const MIN = 60_000;
const parts = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

interface Turn {
  conversation: string;
  version: string;
  at: number;
  question: string;
  answer: string;
  ms?: number;
  error?: boolean;
  tool?: string;
  researcher?: boolean;
  /** The op call that produced the turn (weave.parent_call.*). */
  parentCall?: { id: string; traceId: string };
}

/** One turn: the support agent, a model call, optionally a tool and a sub-agent with its own model call. */
function turnSpans(t: Turn): TestSpan[] {
  const traceId = hexId(16);
  const root = hexId(8);
  const conv = { 'gen_ai.conversation.id': t.conversation };
  const chat = (parent: string, at: number, text: string): TestSpan => ({
    traceId,
    spanId: hexId(8),
    parentSpanId: parent,
    name: 'chat gpt-4o',
    startMs: at,
    endMs: at + 300,
    attributes: {
      ...conv,
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 12,
      'gen_ai.output.messages': parts('assistant', text),
    },
  });
  const spans: TestSpan[] = [
    {
      traceId,
      spanId: root,
      name: 'invoke_agent support',
      startMs: t.at,
      endMs: t.at + (t.ms ?? 2000),
      status: t.error ? 2 : 1,
      attributes: {
        ...conv,
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'support',
        'gen_ai.agent.version': t.version,
        'gen_ai.conversation.name': t.conversation === 'conv-long' ? 'Long haul' : `Desk ${t.conversation.slice(5)}`,
        'gen_ai.input.messages': parts('user', t.question),
        'gen_ai.output.messages': parts('assistant', t.answer),
        ...(t.parentCall
          ? { 'weave.parent_call.id': t.parentCall.id, 'weave.parent_call.trace_id': t.parentCall.traceId }
          : {}),
      },
    },
    chat(root, t.at + 20, t.answer),
  ];
  if (t.tool)
    spans.push({
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: `execute_tool ${t.tool}`,
      startMs: t.at + 400,
      endMs: t.at + 900,
      status: t.error ? 2 : 1,
      attributes: {
        ...conv,
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': t.tool,
        'gen_ai.tool.call.arguments': '{"invoice":"INV-7"}',
        'gen_ai.tool.call.result': t.error ? 'timeout' : '{"total":42}',
      },
    });
  if (t.researcher) {
    const sub = hexId(8);
    spans.push(
      {
        traceId,
        spanId: sub,
        parentSpanId: root,
        name: 'invoke_agent researcher',
        startMs: t.at + 1000,
        endMs: t.at + 1500,
        attributes: { ...conv, 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'researcher' },
      },
      chat(sub, t.at + 1100, 'Flights to Lisbon leave hourly.'),
    );
  }
  return spans;
}

const CALL_ID = '019a0000-0000-7000-8000-00000000c0de';
const CALL_TRACE = '019a0000-0000-7000-8000-00000000face';
const turns: Turn[] = [
  {
    conversation: 'conv-billing',
    version: 'v1',
    at: NOW - 180 * MIN,
    question: 'Where is my invoice?',
    answer: 'Sent yesterday.',
    tool: 'get_invoice',
  },
  {
    conversation: 'conv-billing',
    version: 'v1',
    at: NOW - 179 * MIN,
    question: 'Resend it please',
    answer: 'The invoice service timed out.',
    tool: 'get_invoice',
    error: true,
  },
  { conversation: 'conv-billing', version: 'v1', at: NOW - 178 * MIN, question: 'Thanks', answer: 'You are welcome.' },
  {
    conversation: 'conv-travel',
    version: 'v2',
    at: NOW - 120 * MIN,
    question: 'Book a flight to Lisbon',
    answer: 'Booked TP1234 to Lisbon.',
    researcher: true,
  },
  {
    conversation: 'conv-travel',
    version: 'v2',
    at: NOW - 119 * MIN,
    question: 'Window seat?',
    answer: 'Seat 12A.',
    parentCall: { id: CALL_ID, traceId: CALL_TRACE },
  },
  ...Array.from({ length: 1000 }, (_, i) => ({
    conversation: 'conv-long',
    version: 'v2',
    at: NOW - 100 * MIN + i * 1000,
    question: `Question number ${i + 1}`,
    answer: `Answer number ${i + 1}`,
    ms: 1000,
  })),
];

before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  // The op call (through the calls API, as the SDK logs it) whose code ran the second travel turn.
  const op = `weave:///${ENTITY}/${NAME}/op/plan_trip:AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG`;
  const at = new Date(NOW - 119 * MIN - 1000).toISOString();
  const calls = await fetch(`${w.url}/call/upsert_batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      batch: [
        {
          mode: 'start',
          req: {
            start: {
              project_id: `${ENTITY}/${NAME}`,
              id: CALL_ID,
              trace_id: CALL_TRACE,
              op_name: op,
              started_at: at,
              attributes: {},
              inputs: { q: 'Window seat?' },
            },
          },
        },
        {
          mode: 'end',
          req: { end: { project_id: `${ENTITY}/${NAME}`, id: CALL_ID, ended_at: at, output: 'ok', summary: {} } },
        },
      ],
    }),
  });
  assert.equal(calls.status, 200, await calls.text());
  const spans = turns.flatMap(turnSpans);
  for (let i = 0; i < spans.length; i += 500) {
    const r = await fetch(`${w.url}/agents/otel/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: otlpJson({ 'wandb.entity': ENTITY, 'wandb.project': NAME }, spans.slice(i, i + 500)),
    });
    assert.equal(r.status, 200, await r.text());
  }
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const figure = (card: string, label: string) => `[data-agent="${card}"] [data-figure="${label}"] dd`;

test('agent cards show each agent by value, sortable, and link to the agent', async () => {
  const { page, context, errors, external } = await openPage(browser, w.url);
  await page.goto(`${w.url}${BASE}/agents`);
  await page.locator('[data-testid=agent-card]').nth(1).waitFor();
  assert.equal(await page.title(), `Agents · ${ENTITY}/${NAME} · Weft`);
  const values = async (agent: string) =>
    Object.fromEntries(
      await Promise.all(
        ['Invocations', 'Conversations', 'Turns', 'Latency p50', 'Latency p95', 'Error rate', 'Tokens', 'Cost'].map(
          async (l) => [l, await page.locator(figure(agent, l)).innerText()],
        ),
      ),
    );
  assert.deepEqual(await values('support'), {
    Invocations: '1,005',
    Conversations: '3',
    Turns: '1,005',
    'Latency p50': '1.00 s',
    'Latency p95': '1.00 s',
    'Error rate': '0.1%',
    Tokens: '100.5k in / 12.1k out',
    // 100,500 input and 12,060 output tokens of gpt-4o at $2.50 / $10 per million
    Cost: '$0.372',
  });
  assert.deepEqual(await values('researcher'), {
    Invocations: '1',
    Conversations: '1',
    Turns: '1',
    'Latency p50': '500 ms',
    'Latency p95': '500 ms',
    'Error rate': '0%',
    Tokens: '100 in / 12 out',
    Cost: '$0.00037',
  });
  const order = () =>
    page.locator('[data-testid=agent-card]').evaluateAll((els) => els.map((e) => e.getAttribute('data-agent')));
  assert.deepEqual(await order(), ['support', 'researcher'], 'last seen first');
  await page.locator('[data-testid=agents-sort]').selectOption('name');
  await page.waitForURL(/sort=name/);
  assert.deepEqual(await order(), ['researcher', 'support']);
  await shot(page, 'agents-light');
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.locator('[data-testid=agent-card]').nth(1).waitFor();
  await shot(dark.page, 'agents-dark');
  await dark.context.close();
  await page.locator('[data-agent=support] header a').click();
  await page.waitForURL(`${w.url}${BASE}/agents/support`);
  await page.locator('[data-testid=versions] [data-figure=Invocations]').waitFor();
  const row = async (label: string) =>
    page.locator(`[data-testid=versions] tr[data-figure="${label}"] td`).allInnerTexts();
  assert.deepEqual(
    await page.locator('[data-testid=versions] th[data-version]').allInnerTexts(),
    ['v2', 'v1'],
    'the newest version first',
  );
  assert.deepEqual(await row('Invocations'), ['1,002', '3']);
  assert.deepEqual(await row('Conversations'), ['2', '1']);
  assert.deepEqual(await row('Turns'), ['1,002', '3']);
  assert.deepEqual(await row('Error rate'), ['0%', '33%']);
  assert.deepEqual(await row('Latency p95 (30 d)'), ['1.00 s', '2.00 s']);
  await page.locator('[data-testid=conversations] tr[data-id]').nth(2).waitFor();
  assert.deepEqual(
    await page
      .locator('[data-testid=conversations] tr[data-id]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))),
    ['conv-long', 'conv-travel', 'conv-billing'],
  );
  await shot(page, 'agent-light');
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await context.close();
});

test('conversations: figures, filters in the URL, and a search with its matches marked', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}${BASE}/agents/conversations`);
  await page.locator('[data-testid=conversations] tr[data-id]').nth(2).waitFor();
  const travel = page.locator('[data-testid=conversations] tr[data-id=conv-travel]');
  assert.deepEqual(
    {
      first: await travel.locator('[data-col=first]').innerText(),
      last: await travel.locator('[data-col=last]').innerText(),
      turns: await travel.locator('[data-col=turns]').innerText(),
      tokens: await travel.locator('[data-col=tokens]').innerText(),
    },
    { first: 'Book a flight to Lisbon', last: 'Seat 12A.', turns: '2', tokens: '336' },
  );
  assert.match(await travel.innerText(), /Desk travel/);
  await page.locator('[data-testid=filter-status]').selectOption('error');
  await page.waitForURL(/status=error/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=conversations] tr[data-id]').length === 1);
  assert.equal(await page.locator('[data-testid=conversations] tr[data-id]').getAttribute('data-id'), 'conv-billing');
  await page.goto(`${w.url}${BASE}/agents/conversations?agent=researcher`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=conversations] tr[data-id]').length === 1);
  assert.equal(await page.locator('[data-testid=conversations] tr[data-id]').getAttribute('data-id'), 'conv-travel');
  assert.equal(
    await page.locator('[data-testid=conversations] tr[data-id] [data-col=turns]').innerText(),
    '2',
    'a filter picks conversations; their figures are those of all their spans',
  );

  await page.goto(`${w.url}${BASE}/agents/conversations`);
  await page.locator('[data-testid=conversations] tr[data-id]').nth(2).waitFor();
  await page.locator('[data-testid=conversation-search]').fill('lisbon');
  const typed = Date.now();
  await page.locator('[data-testid=search-hits] mark').first().waitFor();
  const ms = Date.now() - typed - 150; // the input waits 150 ms for typing to stop
  console.log(`# search results ${ms} ms after typing stopped`);
  assert.match(page.url(), /q=lisbon/);
  assert.equal(await page.locator('[data-testid=search-total]').innerText(), '1 conversation matches');
  assert.match(
    await page.locator('[data-testid=search-hits] > li').first().innerText(),
    /^Desk travel support · /,
    'the agent of a conversation is the one with the most spans in it',
  );
  assert.deepEqual([...new Set(await page.locator('[data-testid=search-hits] mark').allInnerTexts())], ['Lisbon']);
  assert.deepEqual(
    (await page.locator('[data-testid=hit]').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
    ['ASSISTANT Flights to Lisbon leave hourly.', 'USER Book a flight to Lisbon', 'ASSISTANT Booked TP1234 to Lisbon.'],
    'newest first where each was first said; the answer the agent repeats from its model call counts once, at the agent span that said it first (in order after the question there)',
  );
  await shot(page, 'conversations-search-light');
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.locator('[data-testid=search-hits] mark').first().waitFor();
  await shot(dark.page, 'conversations-search-dark');
  await dark.context.close();
  await page.locator('[data-testid=hit] a').first().click();
  await page.waitForURL(/agents\/conversations\/conv-travel\?turn=/);
  await page.locator('[data-testid=waterfall] [data-testid=span-row]').first().waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('conversations and search hits come 50 at a time, with "Load more" for the rest', async () => {
  const project = 'agents-many';
  const spans = Array.from({ length: 60 }, (_, i) =>
    turnSpans({
      conversation: `conv-many-${String(i).padStart(2, '0')}`,
      version: 'v1',
      at: NOW - 60 * MIN + i * MIN,
      question: `Where is parcel ${i}?`,
      answer: 'On its way.',
    }),
  ).flat();
  const r = await fetch(`${w.url}/agents/otel/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: otlpJson({ 'wandb.entity': ENTITY, 'wandb.project': project }, spans),
  });
  assert.equal(r.status, 200, await r.text());
  const { page, context, errors } = await openPage(browser, w.url);
  const rows = page.locator('[data-testid=conversations] tr[data-id]');
  await page.goto(`${w.url}/ui/${ENTITY}/${project}/agents/conversations`);
  await rows.nth(49).waitFor();
  assert.equal(await rows.count(), 50);
  assert.equal(await rows.first().getAttribute('data-id'), 'conv-many-59', 'the latest first');
  await page.locator('[data-testid=conversations-more]').scrollIntoViewIfNeeded();
  await shot(page, 'conversations-more-light');
  await page.locator('[data-testid=conversations-more]').click();
  await rows.nth(59).waitFor();
  assert.equal(await rows.count(), 60);
  assert.equal(await page.locator('[data-testid=conversations-more]').count(), 0, 'nothing more to load');
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(page.url());
  const more = dark.page.locator('[data-testid=conversations-more]');
  await more.scrollIntoViewIfNeeded();
  await shot(dark.page, 'conversations-more-dark');
  await dark.context.close();

  await page.locator('[data-testid=conversation-search]').fill('parcel');
  const hits = page.locator('[data-testid=hit]');
  await hits.nth(49).waitFor();
  assert.equal(await hits.count(), 50);
  assert.equal(await page.locator('[data-testid=search-total]').innerText(), '60 conversations match');
  await page.locator('[data-testid=search-more]').click();
  await hits.nth(59).waitFor();
  assert.equal(await hits.count(), 60);
  assert.equal(await page.locator('[data-testid=search-more]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a conversation reads as a chat; a turn opens as a waterfall of its spans', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}${BASE}/agents/conversations/conv-billing`);
  await page.locator('[data-testid=turn]').nth(2).waitFor();
  assert.equal(await page.locator('[data-testid=conversation-facts]').innerText(), '3 turns · 336 tokens · $0.0011');
  const second = page.locator('[data-testid=turn]').nth(1);
  assert.equal(await second.locator('[data-testid=turn-status]').innerText(), 'ERROR');
  assert.match(
    await second.locator('[data-testid=turn-facts]').innerText(),
    /^support · 2\.00 s · 100 in \/ 12 out · \$0\.00037$/,
  );
  assert.deepEqual(
    await second.locator('[data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))),
    ['user', 'agent', 'assistant', 'tool'],
  );
  assert.match(await second.locator('[data-kind=tool]').innerText(), /get_invoice/);
  await second.locator('[data-kind=tool] summary').click();
  assert.match(await second.locator('[data-kind=tool]').innerText(), /timeout/);
  await second.locator('[data-testid=turn-spans]').click();
  await page.waitForURL(/turn=[0-9a-f]{32}/);
  await page.locator('[data-testid=span-row]').nth(2).waitFor();
  assert.deepEqual(
    (await page.locator('[data-testid=span-row]').allInnerTexts()).map((t) => t.split('\n')[0]!.trim()),
    ['invoke_agent support', 'chat gpt-4o gpt-4o · 112 tok', 'execute_tool get_invoice'],
  );
  // The model call (and only it) opens in the playground.
  assert.match(
    (await page.locator('[data-testid=span-playground]').getAttribute('href')) ?? '',
    /\/playground\?span=[0-9a-f]{32}(%3A|:)[0-9a-f]{16}$/,
  );
  await shot(page, 'conversation-turn-light');
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.locator('[data-testid=span-row]').nth(2).waitFor();
  await shot(dark.page, 'conversation-turn-dark');
  await dark.context.close();

  await page.goto(`${w.url}${BASE}/agents/conversations/conv-travel`);
  await page.locator('[data-testid=turn]').nth(1).waitFor();
  const first = page.locator('[data-testid=turn]').first();
  assert.match(await first.locator('[data-agent=researcher] [data-kind=assistant]').innerText(), /Flights to Lisbon/);
  assert.equal(
    await first
      .locator('[data-agent=researcher]')
      .first()
      .getAttribute('class')
      .then((c) => (c ?? '').length > 0),
    true,
    'the sub-agent is indented',
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test('reactions and notes on a turn and on the whole conversation are feedback on their agent refs', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}${BASE}/agents/conversations/conv-billing`);
  await page.locator('[data-testid=turn]').nth(2).waitFor();
  const second = page.locator('[data-testid=turn]').nth(1);
  const traceId = await second.getAttribute('data-trace');
  await second.locator('[data-testid=reactions] button', { hasText: '👍' }).click();
  await second.locator('[data-testid=reactions] button[aria-pressed=true]').waitFor();
  const whole = page.locator('[data-testid=conversation-feedback]');
  await whole.locator('[data-testid=note-input]').fill('Escalate to billing');
  await whole.locator('[data-testid=note-add]').click();
  await whole.locator('[data-testid=note]').waitFor();
  const post = async (path: string, body: unknown) =>
    (
      await fetch(`${w.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json() as Promise<any>;
  const turn = await post('/agents/traces/chat', {
    project_id: `${ENTITY}/${NAME}`,
    trace_id: traceId,
    include_feedback: true,
  });
  assert.deepEqual(
    turn.feedback.map((f: any) => [f.feedback_type, f.payload.emoji, f.weave_ref]),
    [['wandb.reaction.1', '👍', `weave:///${ENTITY}/${NAME}/agent_turn/${traceId}`]],
  );
  const conv = await post('/agents/conversations/chat', {
    project_id: `${ENTITY}/${NAME}`,
    conversation_id: 'conv-billing',
    include_feedback: true,
  });
  assert.deepEqual(
    conv.feedback.map((f: any) => [f.feedback_type, f.payload.note]),
    [['wandb.note.1', 'Escalate to billing']],
  );
  await page.reload();
  await page
    .locator('[data-testid=turn]')
    .nth(1)
    .locator('[data-testid=reactions] button[aria-pressed=true]')
    .waitFor();
  assert.match(
    await page.locator('[data-testid=conversation-feedback] [data-testid=note]').innerText(),
    /Escalate to billing/,
  );
  await shot(page, 'conversation-feedback-light');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an op call links to the agent turn it produced, and the turn back to the call', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}${BASE}/calls/${CALL_ID}`);
  const link = page.locator('[data-testid=agent-turns] a');
  await link.waitFor();
  assert.equal(await link.innerText(), 'support · conv-travel');
  await link.click();
  await page.waitForURL(/agents\/conversations\/conv-travel\?turn=[0-9a-f]{32}/);
  await page.locator('[data-testid=span-row]').nth(1).waitFor();
  const turn = page.locator('[data-testid=turn]').nth(1);
  await turn.locator('[data-testid=turn-call]').waitFor();
  assert.equal(await page.locator('[data-testid=turn-call]').count(), 1, 'only the turn the call produced links to it');
  await turn.locator('[data-testid=turn-call]').click();
  await page.waitForURL(`${w.url}${BASE}/calls/${CALL_ID}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 1,000-turn conversation shows its first turns at once and renders only what is on screen', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  const start = Date.now();
  await page.goto(`${w.url}${BASE}/agents/conversations/conv-long`);
  await page.locator('[data-testid=turn]').first().waitFor();
  const firstTurns = Date.now() - start;
  console.log(`# first turns of 1,000 after ${firstTurns} ms`);
  assert.match(await page.locator('[data-testid=turn]').first().innerText(), /Turn 1[\s\S]*Question number 1\b/);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=conversation-facts]')?.textContent?.includes('tokens'),
    undefined,
    { timeout: 60_000 },
  );
  assert.match(
    await page.locator('[data-testid=conversation-facts]').innerText(),
    /^1,000 turns · 112\.0k tokens · \$0\.370$/,
  );
  const rendered = await page.locator('[data-testid=turn]').count();
  assert.ok(rendered < 40, `${rendered} turns in the DOM of 1,000`);
  await page.locator('[data-testid=turns]').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await page.locator('[data-testid=turn]', { hasText: 'Question number 1000' }).waitFor();
  await shot(page, 'conversation-long-light');
  assert.deepEqual(errors, []);
  await context.close();
});
