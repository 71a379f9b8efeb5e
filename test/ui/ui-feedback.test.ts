// Feedback in place: reactions and notes on a call, written through the feedback API as the
// caller (wb_user_id from the server), taken back by their author, and shown in the calls
// table without a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { LOCAL_USER } from '../helpers/test-app.js';
import { newId } from '../helpers/calls.js';
import { launch, openPage, shot } from './browser.js';
import { op, upsert, type SeedCall } from './seed.js';

const PROJECT = 'ui-team/feedback';
let w: WeftServer;
let browser: Browser;
const calls: SeedCall[] = [];
before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  const t0 = Date.UTC(2026, 10, 3);
  for (let i = 0; i < 3; i++)
    calls.push({
      id: newId(),
      trace_id: newId(),
      op: op(PROJECT, 'answer'),
      started: t0 + i * 1000,
      ended: t0 + i * 1000 + 50,
      inputs: { i },
      output: `a${i}`,
    });
  await upsert(w.url, PROJECT, calls);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const feedbackOf = async (callId: string) =>
  (
    await w.t.post('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${PROJECT}/call/${callId}` }] } },
    })
  ).body.result as { id: string; feedback_type: string; payload: Record<string, unknown>; wb_user_id: string }[];

test("a reaction is added by a click, shown as the viewer's own, and taken back by another", async () => {
  const target = calls[1]!;
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/feedback/calls/${target.id}`);
  const thumbs = page.locator('[data-testid=reactions] button[data-emoji="👍"]');
  await thumbs.waitFor();
  await page.waitForFunction(
    () => !document.querySelector('[data-testid=reactions] button[data-emoji="👍"]')?.hasAttribute('disabled'),
  );
  await thumbs.click();
  await page.locator('[data-testid=reactions] button[data-emoji="👍"][aria-pressed=true]').waitFor();
  assert.equal((await thumbs.innerText()).replace(/\s/g, ''), '👍1');
  const stored = await feedbackOf(target.id);
  assert.equal(stored.length, 1);
  assert.equal(stored[0]!.feedback_type, 'wandb.reaction.1');
  assert.equal(stored[0]!.payload.emoji, '👍');
  assert.equal(stored[0]!.wb_user_id, LOCAL_USER);

  // The calls table shows it, with no reload.
  await page.getByText('← Calls').click();
  await page
    .locator(`[data-testid=call-row][data-id="${target.id}"] [data-testid=feedback-cell]`)
    .filter({ hasText: '👍' })
    .waitFor();
  await page.locator(`[data-testid=call-row][data-id="${target.id}"]`).click();
  await page.locator('[data-testid=reactions] button[data-emoji="👍"][aria-pressed=true]').click();
  await page.locator('[data-testid=reactions] button[data-emoji="👍"][aria-pressed=false]').waitFor();
  assert.deepEqual(await feedbackOf(target.id), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a note is added in the Feedback tab, listed with its author, and deleted by them', async () => {
  const target = calls[0]!;
  const { page, context } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/feedback/calls/${target.id}?tab=feedback`);
  await page.locator('[data-testid=feedback-panel]').waitFor();
  await page.locator('[data-testid=note-input]').fill('The answer cites the wrong year.');
  await page.locator('[data-testid=note-add]').click();
  await page.locator('[data-testid=note]').filter({ hasText: 'The answer cites the wrong year.' }).waitFor();
  const stored = await feedbackOf(target.id);
  assert.deepEqual(
    stored.map((f) => [f.feedback_type, f.payload.note, f.wb_user_id]),
    [['wandb.note.1', 'The answer cites the wrong year.', LOCAL_USER]],
  );
  assert.equal(await page.locator('[data-testid=note-input]').inputValue(), '');
  await shot(page, 'feedback-light');
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.locator('[data-testid=note]').waitFor();
  await shot(dark.page, 'feedback-dark');
  await dark.context.close();
  await page.locator('[data-testid=note]').getByRole('button', { name: 'Delete' }).click();
  await page.locator('[data-testid=note]').waitFor({ state: 'detached' });
  assert.deepEqual(await feedbackOf(target.id), []);
  await context.close();
});

test('scorer feedback written by an SDK is listed with its source', async () => {
  const target = calls[2]!;
  const r = await w.t.post('/feedback/create', {
    project_id: PROJECT,
    weave_ref: `weave:///${PROJECT}/call/${target.id}`,
    feedback_type: 'wandb.runnable.exact_match',
    payload: { output: true },
    runnable_ref: `weave:///${PROJECT}/op/exact_match:AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG`,
    call_ref: `weave:///${PROJECT}/call/${newId()}`,
  });
  assert.equal(r.status, 200, r.text);
  const { page, context } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/feedback/calls/${target.id}?tab=feedback`);
  const table = page.locator('[data-testid=other-feedback]');
  await table.waitFor();
  assert.match(await table.innerText(), /wandb\.runnable\.exact_match[\s\S]*output[\s\S]*true[\s\S]*exact_match:/);
  await context.close();
});
