// The calls table over 3,000 traces: server-side filter, sort and count; the URL holds the
// whole view (reload and a fresh browser show the same rows); virtual scrolling keeps the
// DOM small; the keyboard moves and opens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { newId } from '../helpers/calls.js';
import { ids, launch, openPage, shot } from './browser.js';
import { op, upsert, type SeedCall } from './seed.js';

const PROJECT = 'ui-team/table';
const N = 3000;
const T0 = Date.UTC(2026, 10, 1);
let w: WeftServer;
let browser: Browser;
const calls: SeedCall[] = [];
const latency = (i: number) => (i * 37) % 1000;
before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  for (let i = 0; i < N; i++) {
    const id = newId();
    calls.push({
      id, trace_id: newId(), op: op(PROJECT, i % 2 === 0 ? 'predict' : 'score'), started: T0 + i * 1000, ended: T0 + i * 1000 + latency(i),
      inputs: { group: i % 3 === 0 ? 'a' : 'b', i }, output: `answer ${i}`, ...(i % 50 === 0 ? { exception: `failed ${i}` } : {}),
    });
  }
  await upsert(w.url, PROJECT, calls);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const BASE = () => `${w.url}/ui/ui-team/table/calls`;
const total = (page: Page) => page.locator('[data-testid=calls-total]').innerText();
async function firstIds(page: Page, n: number): Promise<string[]> {
  await page.locator('[data-testid=call-row][data-index="0"][data-id]').waitFor();
  return (await ids(page, '[data-testid=call-row][data-id]')).slice(0, n);
}
const expected = (pred: (i: number) => boolean, by: (i: number) => number) =>
  calls.map((c, i) => [i, c] as const).filter(([i]) => pred(i)).sort((a, b) => by(b[0]) - by(a[0])).map(([, c]) => c.id);

test('newest first, with the total; scrolling to the end fetches that window and keeps the DOM small', async () => {
  const { page, context, external, errors } = await openPage(browser, w.url);
  await page.goto(BASE());
  assert.deepEqual(await firstIds(page, 5), expected(() => true, (i) => i).slice(0, 5));
  assert.equal(await total(page), '3,000 traces');
  const scroller = page.locator('[data-testid=calls-table]');
  await scroller.evaluate((el) => { el.scrollTop = el.scrollHeight; });
  const last = page.locator(`[data-testid=call-row][data-index="${N - 1}"][data-id]`);
  await last.waitFor();
  assert.equal(await last.getAttribute('data-id'), calls[0]!.id);
  assert.ok((await page.locator('[data-testid=call-row]').count()) < 300);
  await scroller.evaluate((el) => { el.scrollTop = el.scrollHeight / 2; });
  await page.locator('[data-testid=call-row][data-index="1500"][data-id]').waitFor();
  assert.ok((await page.locator('[data-testid=call-row]').count()) < 300);
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a filter built in the UI is in the URL; reload and a fresh browser show the same rows', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(BASE());
  await firstIds(page, 1);
  await page.keyboard.press('/');
  await page.keyboard.type('inputs.group');
  await page.locator('[data-testid=filter-op]').selectOption('eq');
  await page.locator('[data-testid=filter-value]').fill('a');
  await page.locator('[data-testid=filter-add]').click();
  await page.waitForURL(/f=/);
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '1,000 traces');
  const want = expected((i) => i % 3 === 0, (i) => i).slice(0, 10);
  assert.deepEqual(await firstIds(page, 10), want);
  await page.locator('[data-testid=errors-only]').check();
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '20 traces');
  const url = page.url();
  assert.deepEqual(await firstIds(page, 20), expected((i) => i % 150 === 0, (i) => i));
  await shot(page, 'calls-filtered-light');

  await page.reload();
  assert.equal(await total(page).then(async (t) => (t === 'Counting…' ? (await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent !== 'Counting…'), total(page)) : t)), '20 traces');
  assert.deepEqual(await firstIds(page, 20), expected((i) => i % 150 === 0, (i) => i));
  const fresh = await openPage(browser, w.url);
  await fresh.page.goto(url);
  await fresh.page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '20 traces');
  assert.deepEqual(await firstIds(fresh.page, 20), expected((i) => i % 150 === 0, (i) => i));
  assert.equal(await fresh.page.locator('[data-testid=filter-chip]').count(), 1);
  await fresh.context.close();

  // Removing the clause and the toggle brings every trace back.
  await page.locator('[data-testid=filter-chip] button').click();
  await page.locator('[data-testid=errors-only]').uncheck();
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '3,000 traces');
  assert.equal(new URL(page.url()).search, '');
  await context.close();
});

test('sorting by latency is done by the server, both ways, and kept in the URL', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(`${BASE()}?op=predict`);
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '1,500 traces');
  await page.locator('[data-testid=sort-latency]').click();
  await page.waitForURL(/sort=summary.weave.latency_ms%3Adesc|sort=summary\.weave\.latency_ms:desc/);
  await page.waitForFunction(() => document.querySelector('[data-testid=call-row][data-index="0"]')?.textContent?.includes('998 ms'));
  const desc = await firstIds(page, 30);
  const latencies = desc.map((id) => latency(calls.findIndex((c) => c.id === id)));
  assert.deepEqual(latencies, [...latencies].sort((a, b) => b - a));
  assert.equal(latencies[0], 998);
  await page.locator('[data-testid=sort-latency]').click();
  await page.waitForURL(/latency_ms(%3A|:)asc/);
  await page.waitForFunction(() => document.querySelector('[data-testid=call-row][data-index="0"]')?.textContent?.includes('<1 ms'));
  await context.close();
});

test('j/k select rows and Enter opens the selected call in its trace', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(BASE());
  const first = await firstIds(page, 3);
  for (let i = 0; i < 3; i++) await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.locator('[data-testid=call-row][data-index="1"][aria-selected=true]').waitFor();
  await page.keyboard.press('Enter');
  await page.waitForURL(`${w.url}/ui/ui-team/table/calls/${first[1]}`);
  await page.locator(`[data-testid=call-detail][data-id="${first[1]}"]`).waitFor();
  await context.close();
});
