// The trace view on a 50,551-call agent trace: first rows before the whole tree (timed by bench),
// a DOM that stays small, a deep link 40,000 rows down, keyboard moves; and the detail
// panel's renderers on golden calls (chat with tool calls, images, huge strings, errors).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { newId } from '../helpers/calls.js';
import { launch, mark, openPage, shot } from './browser.js';
import { bigTrace, op, upsert, type SeedCall } from './seed.js';

const BIG = 'ui-team/big';
const GOLD = 'ui-team/golden';
let w: WeftServer;
let browser: Browser;
let trace: SeedCall[];
/** The trace in display order (depth first, children by start), as the tree shows it expanded. */
let order: string[];
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  trace = bigTrace(BIG, 50, 10, 100);
  await upsert(w.url, BIG, trace);
  const kids = new Map<string, string[]>();
  for (const c of trace) if (c.parent_id) kids.set(c.parent_id, [...(kids.get(c.parent_id) ?? []), c.id]);
  order = [];
  const stack = [trace[0]!.id];
  while (stack.length) {
    const id = stack.pop()!;
    order.push(id);
    stack.push(...[...(kids.get(id) ?? [])].reverse());
  }
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const treeRows = (page: Page) => page.locator('[data-testid=tree-row]');
const ready = (page: Page) =>
  page.waitForFunction(
    () =>
      /^[\d,]+ calls ·/.test(document.querySelector('[data-testid=trace-stats]')?.textContent ?? '') &&
      !document.querySelector('[data-testid=trace-stats]')!.textContent!.includes('loading'),
    undefined,
    { timeout: 60_000 },
  );

test(`a ${50_551} call trace: first rows before the whole tree, fewer than 300 rows in the DOM`, async () => {
  assert.equal(trace.length, 50_551);
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/big/calls/${trace[0]!.id}`);
  await treeRows(page).first().waitFor();
  await ready(page);
  const first = (await mark(page, 'weft:first-row'))!;
  const whole = (await mark(page, 'weft:trace-ready'))!;
  console.log(
    `# 50,551-call trace: first rows ${first.toFixed(0)} ms, whole tree ${whole.toFixed(0)} ms from navigation`,
  );
  // Timings are logged, not asserted: the budgets are checked as medians by `npm run bench -- ui`.
  assert.ok(first <= whole, 'the first rows show before the whole tree is in');
  assert.match(await page.locator('[data-testid=trace-stats]').innerText(), /^50,551 calls · 0 errors/);
  const longest = await page.evaluate(() =>
    Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks),
  );
  console.log(`# longest task while loading: ${longest.toFixed(0)} ms`);
  const scroller = page.locator('[data-testid=trace-tree]');
  for (const at of [0, 0.37, 0.81, 1]) {
    await scroller.evaluate((el, f) => {
      el.scrollTop = el.scrollHeight * f;
    }, at);
    await page.waitForTimeout(50);
    const n = await treeRows(page).count();
    assert.ok(n > 10 && n < 300, `${n} rows in the DOM at ${at}`);
  }
  // The last row is the last call of the depth-first order.
  assert.equal(await treeRows(page).last().getAttribute('data-id'), order[order.length - 1]);
  await shot(page, 'trace-big-light');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a deep link to a call 40,000 rows down shows it selected and in view; the keyboard moves from there', async () => {
  const target = order[40_000]!;
  const { page, context } = await openPage(browser, w.url);
  const t0 = Date.now();
  await page.goto(`${w.url}/ui/ui-team/big/calls/${trace[0]!.id}?call=${target}`);
  const row = page.locator(`[data-testid=tree-row][data-id="${target}"][aria-selected=true]`);
  await row.waitFor();
  const took = Date.now() - t0;
  console.log(`# deep link 40,000 rows down: selected and visible after ${took} ms`);
  const box = (await row.boundingBox())!;
  assert.ok(box.y >= 0 && box.y + box.height <= 800, `row at ${box.y}`);
  await page.locator(`[data-testid=call-detail][data-id="${target}"]`).waitFor();
  assert.match(await page.locator('[data-testid=inputs]').innerText(), /llm/);
  await shot(page, 'trace-deeplink-light');

  const parentOf = (id: string) => trace.find((c) => c.id === id)!.parent_id!;
  const selectedIs = (id: string) =>
    page.locator(`[data-testid=tree-row][data-id="${id}"][aria-selected=true]`).waitFor();
  await page.keyboard.press('j');
  await selectedIs(order[40_001]!);
  assert.equal(new URL(page.url()).searchParams.get('call'), order[40_001]);
  await page.keyboard.press('k');
  await selectedIs(target);
  await page.keyboard.press(']');
  await selectedIs(order[40_001]!);
  await page.keyboard.press('h'); // a leaf: to its parent
  const tool = parentOf(target);
  await selectedIs(tool);
  await page.keyboard.press('h'); // an open parent: collapses it
  await page.locator(`[data-testid=tree-row][data-id="${tool}"][aria-expanded=false]`).waitFor();
  assert.equal(await page.locator(`[data-testid=tree-row][data-id="${target}"]`).count(), 0);
  await page.keyboard.press('l'); // expands again
  await page.locator(`[data-testid=tree-row][data-id="${tool}"][aria-expanded=true]`).waitFor();
  await page.keyboard.press('p');
  await selectedIs(parentOf(tool));
  await context.close();
});

test('open to depth 1 lists the root and its 50 steps; the timeline view is a URL', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/big/calls/${trace[0]!.id}?depth=1&view=timeline`);
  await ready(page);
  // 51 rows of 28 px: the root and its 50 closed steps.
  await page.waitForFunction(
    () =>
      (document.querySelector('[data-testid=trace-tree] > div') as HTMLElement | null)?.style.height === `${51 * 28}px`,
  );
  assert.equal(await page.locator('[data-testid=tree-row][data-depth="2"]').count(), 0);
  assert.equal(await page.locator('[data-testid=tree-row][data-depth="1"][aria-expanded=true]').count(), 0);
  assert.equal(await page.locator('[data-testid=view-timeline]').getAttribute('aria-pressed'), 'true');
  await shot(page, 'trace-timeline-light');
  await page.locator('[data-testid=view-tree]').click();
  await page.waitForURL((u) => u.searchParams.get('view') === null && u.searchParams.get('depth') === '1');
  await context.close();
});

test('the op search dims what does not match and n moves to the next match; it is in the URL', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/big/calls/${trace[0]!.id}?depth=3`);
  await ready(page);
  await page.locator('[data-testid=tree-search]').fill('^tool$');
  await page.locator('[data-testid=tree-search]').press('Enter');
  await page.waitForURL((u) => u.searchParams.get('q') === '^tool$');
  await page.waitForFunction(() =>
    /^500 matches/.test(document.querySelector('[data-testid=tree-matches]')?.textContent ?? ''),
  );
  await page.locator('[data-testid=trace-tree]').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('n');
  const firstTool = order.find((id) => trace.find((c) => c.id === id)!.op.includes('/op/tool:'))!;
  await page.locator(`[data-testid=tree-row][data-id="${firstTool}"][aria-selected=true]`).waitFor();
  const dimmed = await page
    .locator('[data-testid=tree-row]')
    .evaluateAll((els) => els.map((e) => [e.textContent?.startsWith('tool') ?? false, e.hasAttribute('data-dimmed')]));
  assert.ok(
    dimmed.every(([isTool, d]) => isTool !== d),
    JSON.stringify(dimmed.slice(0, 5)),
  );
  // Dimmed rows stay readable (WCAG AA), in both themes: the shot checks their contrast.
  await shot(page, 'trace-search-light');
  await page.locator('[data-testid=theme-toggle]').click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await shot(page, 'trace-search-dark');
  await page.keyboard.press('n');
  await page.waitForFunction((id) => new URL(location.href).searchParams.get('call') !== id, firstTool);
  await context.close();
});

test('golden calls: a chat with tool calls, an image, a megabyte string, an exception', async () => {
  const t = Date.UTC(2026, 10, 21, 9);
  const chatId = newId();
  const root: SeedCall = {
    id: newId(),
    trace_id: newId(),
    op: op(GOLD, 'openai.chat.completions.create'),
    started: t,
    ended: t + 1200,
    inputs: {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You answer weather questions.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1PX}` } },
          ],
        },
      ],
    },
    output: {
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
        },
      ],
    },
    summary: { usage: { 'gpt-4o': { requests: 1, prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 } } },
  };
  const big: SeedCall = {
    id: chatId,
    trace_id: root.trace_id,
    parent_id: root.id,
    op: op(GOLD, 'summarise'),
    started: t + 10,
    ended: t + 900,
    inputs: { document: 'x'.repeat(1_000_000) },
    output:
      '## Summary\n\n- **one** point\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![remote](http://example.com/x.png) [docs](http://example.com/docs)',
  };
  const failing: SeedCall = {
    id: newId(),
    trace_id: root.trace_id,
    parent_id: root.id,
    op: op(GOLD, 'get_weather'),
    started: t + 950,
    ended: t + 1000,
    inputs: { raw_png: PNG_1PX.repeat(1) },
    exception: 'Traceback (most recent call last):\n  File "tools.py", line 3\nTimeoutError: weather service timed out',
  };
  await upsert(w.url, GOLD, [root, big, failing]);
  const { page, context, errors, external } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/golden/calls/${root.id}`);
  await page.locator(`[data-testid=call-detail][data-id="${root.id}"]`).waitFor();
  await page.locator('[data-testid=chat] [data-role=system]').waitFor();
  assert.match(await page.locator('[data-testid=chat] [data-role=user]').innerText(), /What is in this picture\?/);
  assert.match(
    (await page.locator('[data-testid=conversation] img[data-testid=media-image]').getAttribute('src'))!,
    /^data:image\/png;base64,/,
  );
  // A model call reads as one conversation: the request, then the response's tool call.
  assert.match(
    await page.locator('[data-testid=conversation] [data-response] [data-testid=tool-call]').innerText(),
    /get_weather[\s\S]*Paris/,
  );
  await shot(page, 'detail-chat-light');
  await page.locator('[data-testid=tab-summary]').click();
  await page.waitForURL(/tab=summary/);
  assert.match(await page.locator('[data-testid=usage]').innerText(), /gpt-4o\s+1\s+120\s+30\s+150/);

  await page.goto(`${w.url}/ui/ui-team/golden/calls/${root.id}?call=${chatId}`);
  await page.locator('[data-testid=gated-text]').waitFor();
  const longest = await page.evaluate(() => {
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let max = 0;
    for (let n = walk.nextNode(); n; n = walk.nextNode()) max = Math.max(max, n.textContent?.length ?? 0);
    return max;
  });
  assert.ok(longest < 10_000, `a text node of ${longest} characters`);
  assert.match(await page.locator('[data-testid=gated-text]').innerText(), /1,000,000 characters/);
  // A markdown answer renders as markdown (no raw HTML, no remote images), with a raw toggle.
  const md = page.locator('[data-testid=output] [data-testid=markdown]');
  await md.locator('h2').waitFor();
  assert.equal(await md.locator('h2').innerText(), 'Summary');
  assert.equal(await md.locator('table td').count(), 2);
  assert.equal(await md.locator('img').count(), 0);
  assert.equal(await md.locator('a').getAttribute('rel'), 'noopener noreferrer nofollow');
  // The toggle covers no text: it sits above the rendered markdown.
  const toggle = (await page.locator('[data-testid=output] [data-testid=markdown-toggle]').boundingBox())!;
  const text = (await md.boundingBox())!;
  assert.ok(toggle.y + toggle.height <= text.y, 'the Raw toggle is above the text, not over it');
  await page.locator('[data-testid=output] [data-testid=markdown-toggle]').click();
  assert.match(await page.locator('[data-testid=output]').innerText(), /## Summary/);

  await page.goto(`${w.url}/ui/ui-team/golden/calls/${failing.id}`);
  await page.locator('[data-testid=exception]').waitFor();
  assert.match(await page.locator('[data-testid=exception]').innerText(), /TimeoutError: weather service timed out/);
  // Raw base64 of a PNG shows as the image, not as text.
  await page.locator('[data-testid=inputs] img[data-testid=media-image]').waitFor();
  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await context.close();
});

test('a large JSON value is a virtual tree: pages of 100, a small DOM, every line reachable by scrolling', async () => {
  const t = Date.UTC(2026, 10, 21, 10);
  const rows = Array.from({ length: 3_000 }, (_, i) => ({ i, label: `row ${i}` }));
  const call: SeedCall = {
    id: newId(),
    trace_id: newId(),
    op: op(GOLD, 'load_rows'),
    started: t,
    ended: t + 50,
    inputs: { n: 3_000 },
    output: { rows, source: 'db' },
  };
  await upsert(w.url, GOLD, [call]);
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/golden/calls/${call.id}`);
  const tree = page.locator('[data-testid=output] [data-testid=json-tree]');
  await tree.locator('[data-testid=json-line]').first().waitFor();
  const lines = async () => Number(await tree.getAttribute('data-lines'));
  // rows opens with its first page of 100 items (an open line, 2 fields and a close line each).
  assert.equal(await lines(), 1 + 100 * 4 + 1 + 1 + 1);
  const scroller = tree.locator('[data-testid=json-scroller]');
  const scrollTo = (at: 'top' | 'bottom') =>
    scroller.evaluate((el, a) => {
      el.scrollTop = a === 'top' ? 0 : el.scrollHeight;
    }, at);
  for (let i = 0; i < 5; i++) {
    const more = tree.locator('[data-testid=json-more]');
    await scrollTo('bottom');
    assert.match(await more.innerText(), new RegExp(`Show 100 more of ${(2_900 - i * 100).toLocaleString('en-US')}`));
    await more.click();
  }
  assert.equal(await lines(), 1 + 600 * 4 + 1 + 1 + 1);
  const inDom = await tree.locator('[data-testid=json-line]').count();
  assert.ok(inDom < 150, `${inDom} lines in the DOM`);
  // The end of the value is reachable: scroll the tree to its bottom.
  await scrollTo('bottom');
  await tree.getByText('"row 599"').waitFor();
  await tree.getByText('"db"').waitFor();
  await shot(page, 'detail-json-virtual-light');
  // Collapsing rows leaves its summary line.
  await scrollTo('top');
  await tree.locator('[aria-label=Collapse]').first().click();
  assert.equal(await lines(), 2);
  assert.match(await tree.innerText(), /rows:\s*\[3,000 items\]/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link to an unknown call says so (the stream answers 404), with no error banner', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  const r = page.waitForResponse((res) => res.url().endsWith('/ui/api/trace_tree'));
  await page.goto(`${w.url}/ui/ui-team/big/calls/no-such-call`);
  assert.equal((await r).status(), 404);
  await page.locator('[data-testid=no-call]').waitFor();
  assert.match(await page.locator('[data-testid=no-call]').innerText(), /No call no-such-call in ui-team\/big/);
  assert.equal(await page.locator('[data-testid=error-banner]').count(), 0);
  // The browser logs the 404 response itself; nothing else goes wrong.
  assert.deepEqual(
    errors.filter((e) => !/404/.test(e)),
    [],
  );
  await context.close();
});
