// The trace view's numbers on a trace the real weave SDK writes through wrapOpenAI against the
// model stand-in: tokens and cost rolled up to every row and the header (exact, at a project
// price), the model on model calls, and error navigation (next / previous, errors only).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { assertRanCleanly, eventually, runSdk, startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { jsonl } from '../helpers/calls.js';
import { finalAnswer, forecast, MODEL, startModelStandin, USAGE, type ModelStandin } from '../helpers/model-standin.js';
import { launch, openPage, shot } from './browser.js';

const require = createRequire(import.meta.url);
const OPENAI_ENTRY = createRequire(require.resolve('weave')).resolve('openai');
const PROJECT = 'ui-team/usage';
const PRICE = { prompt: 0.001, completion: 0.002 };
/** One plain chat round's tokens and cost at PRICE. */
const ROUND_TOKENS = USAGE.plain.input + USAGE.plain.output;
const ROUND_COST = USAGE.plain.input * PRICE.prompt + USAGE.plain.output * PRICE.completion;

let w: WeftServer;
let model: ModelStandin;
let browser: Browser;
let calls: any[];
const idOf = (pred: (c: any) => boolean) => calls.find(pred)!.id as string;

before(async () => {
  [w, model, browser] = await Promise.all([startWeftServer(), startModelStandin(), launch()]);
  const priced = await w.t.post('/cost/create', {
    project_id: PROJECT,
    costs: {
      [MODEL]: {
        prompt_token_cost: PRICE.prompt,
        completion_token_cost: PRICE.completion,
        effective_date: '2020-01-01T00:00:00Z',
      },
    },
  });
  assert.equal(priced.status, 200, priced.text);
  const run = await runSdk(
    w.url,
    PROJECT,
    `
  const OpenAI = require(${JSON.stringify(OPENAI_ENTRY)});
  const openai = weave.wrapOpenAI(new OpenAI({ apiKey: 'sk-standin', baseURL: ${JSON.stringify(`${model.url}/v1`)} }));
  const lookup = weave.op(async function lookup(q) {
    if (q === 'fail') throw new Error('lookup failed for ' + q);
    return 'notes on ' + q;
  });
  const step = weave.op(async function step(q) {
    try { await lookup(q); } catch {}
    const r = await openai.chat.completions.create({ model: '${MODEL}', messages: [{ role: 'user', content: q }] });
    return r.choices[0].message.content;
  });
  const agent = weave.op(async function agent() {
    for (const q of ['first', 'fail', 'last']) await step(q);
    return 'done';
  });
  await agent();

  // A second trace: two rounds with a tool, as an agent loop sends them.
  const tools = [{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
  const weather = weave.op(async function weather(question) {
    const messages = [{ role: 'system', content: 'You answer weather questions.' }, { role: 'user', content: question }];
    const first = await openai.chat.completions.create({ model: '${MODEL}', messages: [...messages], tools });
    const asked = first.choices[0].message;
    messages.push(asked, { role: 'tool', tool_call_id: asked.tool_calls[0].id, content: JSON.stringify(${JSON.stringify(forecast('Paris'))}) });
    const second = await openai.chat.completions.create({ model: '${MODEL}', messages: [...messages], tools });
    return second.choices[0].message.content;
  });
  out.answer = await weather('What is the weather in Paris?');
  `,
    { timeoutMs: 120_000 },
  );
  assertRanCleanly(run);
  calls = await eventually(async () => {
    const c = jsonl((await w.t.post('/calls/stream_query', { project_id: PROJECT })).text);
    return c.length === 13 && c.every((x) => x.ended_at) ? c : null;
  }, 'the 10 + 3 calls of the two traces');
  assert.equal(run.result.answer, finalAnswer('Paris'));
});
after(async () => {
  await browser?.close();
  await w?.close();
  await model?.close();
});

const rootId = () => idOf((c) => c.parent_id === null && c.op_name.includes('/agent:'));
const failedLookup = () => idOf((c) => c.op_name.includes('/lookup:') && c.exception);
const row = (page: Page, id: string) => page.locator(`[data-testid=tree-row][data-id="${id}"]`);
const cell = (page: Page, id: string, what: string) => row(page, id).locator(`[data-testid=${what}]`).innerText();
const ready = (page: Page) =>
  page.waitForFunction(() =>
    /^10 calls ·/.test(document.querySelector('[data-testid=trace-stats]')?.textContent ?? ''),
  );

test('the header and every row carry tokens and cost with the descendants; model calls name the model', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    await page.goto(`${w.url}/ui/${PROJECT}/calls/${rootId()}`);
    await ready(page);
    const stats = await page.locator('[data-testid=trace-stats]').innerText();
    assert.match(
      stats,
      new RegExp(`^10 calls · 1 error · .+ · ${3 * ROUND_TOKENS} tokens · \\$${(3 * ROUND_COST).toFixed(3)}$`),
    );
    assert.equal(await cell(page, rootId(), 'row-tokens'), String(3 * ROUND_TOKENS));
    assert.equal(await cell(page, rootId(), 'row-cost'), `$${(3 * ROUND_COST).toFixed(3)}`);
    for (const step of calls.filter((c) => c.op_name.includes('/step:'))) {
      assert.equal(await cell(page, step.id, 'row-tokens'), String(ROUND_TOKENS));
      assert.equal(await cell(page, step.id, 'row-cost'), `$${ROUND_COST.toFixed(3)}`);
      assert.equal(await row(page, step.id).locator('[data-testid=row-model]').count(), 0, 'a step is no model call');
    }
    const traceId = calls.find((c) => c.id === rootId())!.trace_id;
    const completions = calls.filter(
      (c) => c.trace_id === traceId && c.op_name.includes('openai.chat.completions.create'),
    );
    assert.equal(completions.length, 3);
    for (const c of completions) {
      assert.equal(await cell(page, c.id, 'row-model'), MODEL);
      assert.equal(await cell(page, c.id, 'row-tokens'), String(ROUND_TOKENS));
    }
    for (const c of calls.filter((x) => x.op_name.includes('/lookup:'))) {
      assert.equal(await cell(page, c.id, 'row-tokens'), '');
      assert.equal(await cell(page, c.id, 'row-cost'), '');
    }
    await shot(page, `trace-usage-${theme}`);
    assert.deepEqual(p.external, []);
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('e goes to the next error, E to the previous; errors only keeps the failed call and its ancestors', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/${PROJECT}/calls/${rootId()}`);
  await ready(page);
  await page.keyboard.press('e');
  await page.waitForURL((u) => u.searchParams.get('call') === failedLookup());
  assert.equal(await row(page, failedLookup()).getAttribute('aria-selected'), 'true');
  await page.locator('[data-testid=error-prev]').click(); // one error: it wraps to itself
  assert.equal(new URL(page.url()).searchParams.get('call'), failedLookup());

  await page.locator('[data-testid=errors-only]').click();
  await page.waitForURL(/[?&]errors=1/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tree-row]').length === 3);
  const failing = calls.find((c) => c.id === failedLookup())!;
  assert.deepEqual(await page.$$eval('[data-testid=tree-row]', (els) => els.map((e) => e.getAttribute('data-id'))), [
    rootId(),
    failing.parent_id,
    failing.id,
  ]);
  await shot(page, 'trace-errors-only-light');
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tree-row]').length === 3);
  assert.equal(await page.locator('[data-testid=errors-only]').getAttribute('aria-pressed'), 'true');
  await page.locator('[data-testid=errors-only]').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tree-row]').length === 10);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a search that matches does not move the toolbar', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/${PROJECT}/calls/${rootId()}`);
  await ready(page);
  const depthBox = async () => (await page.locator('[data-testid=depth]').boundingBox())!;
  const before = await depthBox();
  await page.locator('[data-testid=tree-search]').fill('step');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() =>
    /^3 matches/.test(document.querySelector('[data-testid=tree-matches]')?.textContent ?? ''),
  );
  assert.deepEqual(await depthBox(), before);
  await context.close();
});

test('a model call reads as one conversation: tool calls numbered and paired with their results, tools folded', async () => {
  const weatherRoot = calls.find((c) => c.op_name.includes('/weather:'))!;
  const second = calls
    .filter((c) => c.parent_id === weatherRoot.id)
    .sort((a, b) => (a.started_at < b.started_at ? -1 : 1))[1]!;
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    await page.goto(`${w.url}/ui/${PROJECT}/calls/${weatherRoot.id}?call=${second.id}`);
    const chat = page.locator('[data-testid=conversation] [data-testid=chat]');
    await chat.waitFor();
    const messages = chat.locator('[data-testid=message]');
    assert.deepEqual(await messages.evaluateAll((els) => els.map((e) => e.getAttribute('data-role'))), [
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    const call = messages.nth(2).locator('[data-testid=tool-call]');
    assert.equal(await call.getAttribute('data-n'), '1');
    assert.match(await call.innerText(), /^Tool call #1 get_weather[\s\S]*Paris/);
    assert.match(await messages.nth(3).locator('> div').first().innerText(), /result of #1 get_weather/i);
    assert.match(await messages.nth(3).innerText(), /sunny/);
    // The response is the conversation's next turn.
    assert.equal(await messages.nth(4).getAttribute('data-response'), 'true');
    assert.match(await messages.nth(4).innerText(), new RegExp(finalAnswer('Paris')));
    // The tool definitions are offered folded; the request's other inputs stay below.
    const defs = page.locator('[data-testid=tool-definitions]');
    assert.equal(await defs.locator('summary').innerText(), '1 tool definition offered');
    assert.equal(await defs.getAttribute('open'), null);
    assert.match(await page.locator('[data-testid=inputs]').innerText(), new RegExp(MODEL));
    await shot(page, `detail-conversation-${theme}`);
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('the timeline has a time axis; dragging across it zooms (in the URL), bars clipped to the window', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    await page.goto(`${w.url}/ui/${PROJECT}/calls/${rootId()}?view=timeline`);
    await ready(page);
    const axis = page.locator('[data-testid=time-axis]');
    await axis.waitFor();
    const root = calls.find((c) => c.id === rootId())!;
    const whole = Date.parse(root.ended_at) - Date.parse(root.started_at);
    assert.equal(await axis.getAttribute('data-from'), '0');
    assert.equal(Number(await axis.getAttribute('data-to')), whole);
    const ticks = await axis.locator('[data-testid=axis-tick]').allInnerTexts();
    assert.equal(ticks[0], '0 ms');
    assert.equal(ticks.length, 3);
    const rootBar = () => page.locator(`[data-testid=tree-row][data-id="${rootId()}"] [data-testid=bar]`);
    const fullWidth = (await rootBar().boundingBox())!.width;
    // Drag across the first half of the axis.
    const track = (await axis.locator('[title="Drag to zoom"]').boundingBox())!;
    await page.mouse.move(track.x + 1, track.y + track.height / 2);
    await page.mouse.down();
    await page.mouse.move(track.x + track.width / 4, track.y + track.height / 2, { steps: 4 });
    await page.mouse.move(track.x + track.width / 2, track.y + track.height / 2, { steps: 4 });
    await page.mouse.up();
    await page.waitForURL((u) => u.searchParams.has('zoom'));
    const [a, b] = new URL(page.url()).searchParams.get('zoom')!.split('-').map(Number);
    assert.ok(a! <= whole * 0.02 && Math.abs(b! - whole / 2) <= whole * 0.03, `zoom ${a}-${b} of ${whole} ms`);
    assert.equal(Number(await axis.getAttribute('data-to')), b);
    // The root spans the whole window now: its bar fills the track; calls after the window have none.
    await page.waitForFunction((id) => {
      const bar = document.querySelector(`[data-testid=tree-row][data-id="${id}"] [data-testid=bar]`);
      return bar !== null && bar.getBoundingClientRect().width > 0;
    }, rootId());
    assert.ok(Math.abs((await rootBar().boundingBox())!.width - fullWidth) <= 2, 'the root fills the window');
    const last = calls
      .filter((c) => c.trace_id === root.trace_id)
      .reduce((x, c) => (c.started_at > x.started_at ? c : x));
    if (Date.parse(last.started_at) - Date.parse(root.started_at) > b!)
      assert.equal(
        await page.locator(`[data-testid=tree-row][data-id="${last.id}"] [data-testid=bar]`).isHidden(),
        true,
      );
    await shot(page, `trace-timeline-zoom-${theme}`);
    await page.locator('[data-testid=reset-zoom]').click();
    await page.waitForURL((u) => !u.searchParams.has('zoom'));
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('the calls table sorts by tokens, cost and feedback on the server, calls without them last', async () => {
  const completions = calls.filter((c) => c.op_name.includes('openai.chat.completions.create'));
  const final = completions.find((c) => c.summary.usage[MODEL].total_tokens === USAGE.final.input + USAGE.final.output);
  for (const [id, feedback_type, payload] of [
    [final.id, 'wandb.reaction.1', { emoji: '👍' }],
    [final.id, 'wandb.reaction.1', { emoji: '👍' }],
    [failedLookup(), 'wandb.note.1', { note: 'why?' }],
  ] as const) {
    const r = await w.t.post('/feedback/create', {
      project_id: PROJECT,
      weave_ref: `weave:///${PROJECT}/call/${id}`,
      feedback_type,
      payload,
    });
    assert.equal(r.status, 200, r.text);
  }
  /** What the server holds, as the Tokens and Cost cells print it, best first. */
  const tokensOf = (c: any) =>
    Object.values((c.summary?.usage ?? {}) as Record<string, any>).reduce((s, u) => s + u.total_tokens, 0);
  const withUsage = calls.filter((c) => c.summary?.usage && Object.keys(c.summary.usage).length > 0);
  const tokensDesc = withUsage.map(tokensOf).sort((a, b) => b - a);
  assert.ok(tokensDesc.length >= completions.length && tokensDesc[0]! >= 244, JSON.stringify(tokensDesc));
  /** As the Cost cell prints it (formatCost). */
  const costOf = (c: any) => {
    const usd = Object.values(c.summary.usage as Record<string, any>).reduce(
      (s, u) => s + u.prompt_tokens * PRICE.prompt + u.completion_tokens * PRICE.completion,
      0,
    );
    return usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(3)}`;
  };
  const costsDesc = [...withUsage].sort((a, b) => tokensOf(b) - tokensOf(a)).map(costOf);
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    const column = (col: string) =>
      page.$$eval(`[data-testid=call-row] [data-col="${col}"]`, (cells) => cells.map((c) => c.textContent ?? ''));
    await page.goto(`${w.url}/ui/${PROJECT}/calls?roots=0`);
    await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '13 calls');
    await page.locator('[data-testid=sort-tokens]').click();
    await page.waitForURL(/sort=summary\.weave\.total_tokens(%3A|:)desc/);
    await page.waitForFunction(
      (top) =>
        document.querySelector('[data-testid=call-row][data-index="0"] [data-col="tokens"]')?.textContent === top,
      String(tokensDesc[0]),
    );
    const tokens = await column('tokens');
    assert.deepEqual(tokens.slice(0, tokensDesc.length), tokensDesc.map(String));
    assert.deepEqual(tokens.slice(tokensDesc.length), Array(13 - tokensDesc.length).fill(''));
    await page.locator('[data-testid=sort-tokens]').click();
    await page.waitForURL(/total_tokens(%3A|:)asc/);
    const tokensAsc = [...tokensDesc].reverse().map(String);
    await page.waitForFunction(
      (low) =>
        document.querySelector('[data-testid=call-row][data-index="0"] [data-col="tokens"]')?.textContent === low,
      tokensAsc[0]!,
    );
    assert.deepEqual((await column('tokens')).slice(0, tokensAsc.length), tokensAsc);

    // Cost: every call with usage is priced here (one model, a project price), so the order is the tokens'.
    await page.locator('[data-testid=sort-cost]').click();
    await page.waitForURL(/sort=summary\.weave\.total_cost(%3A|:)desc/);
    await page.waitForFunction(
      (top) => document.querySelector('[data-testid=call-row][data-index="0"] [data-col="cost"]')?.textContent === top,
      costsDesc[0]!,
    );
    const costs = await column('cost');
    assert.deepEqual(costs.slice(0, costsDesc.length), costsDesc);
    assert.deepEqual(costs.slice(costsDesc.length), Array(13 - costsDesc.length).fill(''));

    await page.locator('[data-testid=sort-feedback]').click();
    await page.waitForURL(/sort=feedback\.%5B\*%5D\.count(%3A|:)desc|sort=feedback\.\[\*\]\.count(%3A|:)desc/);
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid=call-row][data-index="0"]')?.getAttribute('data-id') === id,
      final.id,
    );
    const feedback = await column('feedback');
    assert.deepEqual(feedback.slice(0, 3), ['👍2', ' +1', '']);
    assert.equal(await page.locator('[data-testid=call-row][data-index="1"]').getAttribute('data-id'), failedLookup());
    // Model calls' previews read as the conversation: the last request message in, the reply out.
    const preview = (id: string, col: string) =>
      page.locator(`[data-testid=call-row][data-id="${id}"] [data-col="${col}"]`).innerText();
    assert.equal(await preview(final.id, 'output'), finalAnswer('Paris'));
    assert.equal(await preview(final.id, 'input'), JSON.stringify(forecast('Paris')));
    const toolRound = completions.find(
      (c) => c.summary.usage[MODEL].total_tokens === USAGE.tool.input + USAGE.tool.output,
    );
    assert.equal(await preview(toolRound.id, 'input'), 'What is the weather in Paris?');
    assert.equal(await preview(toolRound.id, 'output'), '→ get_weather({"city":"Paris"})');
    await shot(page, `calls-sorted-by-feedback-${theme}`);
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('the column picker offers every key the SDK wrote, from every call', async () => {
  // An implementation of its own: keys of inputs and output two levels deep, of attributes one.
  const named = (k: string) => k !== '' && !k.includes('.') && !['_type', '_class_name', '_bases'].includes(k);
  const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const expected = new Set<string>(['output']);
  for (const c of calls)
    for (const [column, deep] of [
      ['inputs', true],
      ['output', true],
      ['attributes', false],
    ] as const) {
      const v = c[column];
      if (!isDict(v)) continue;
      for (const [k, child] of Object.entries(v)) {
        if (!named(k)) continue;
        expected.add(`${column}.${k}`);
        if (deep && isDict(child))
          for (const k2 of Object.keys(child).filter(named)) expected.add(`${column}.${k}.${k2}`);
      }
    }
  assert.ok(expected.has('output.usage.total_tokens') && expected.has('inputs.messages'), [...expected].join());
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    await page.goto(`${w.url}/ui/${PROJECT}/calls?roots=0`);
    await page.locator('[data-testid=call-row][data-index="0"]').waitFor();
    await page.locator('[data-testid=columns-button]').click();
    await page.locator('[data-testid=column-picker] input[data-path="output.usage.total_tokens"]').waitFor();
    const offered = await page.$$eval('[data-testid=column-picker] input[data-path]', (els) =>
      els.map((e) => e.getAttribute('data-path')),
    );
    assert.deepEqual(offered, [...expected].sort());
    await page.locator('[data-testid=column-picker] input[data-path="output.usage.total_tokens"]').check();
    await page.waitForURL((u) => u.searchParams.has('cols'));
    await shot(page, `calls-column-picker-${theme}`);
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});
