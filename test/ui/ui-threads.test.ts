// Threads: the project's conversation threads, newest activity first, and one opened as its
// turns in order (turn calls only, not their steps), each linked to its trace.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { newId } from '../helpers/calls.js';
import { launch, openPage, shot } from './browser.js';

const PROJECT = 'ui-team/threads';
let w: WeftServer;
let browser: Browser;
const turns: string[] = [];
before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  const t0 = Date.UTC(2026, 10, 4, 9);
  const batch: unknown[] = [];
  const call = (
    id: string,
    thread: string,
    turn: string,
    parent: string | null,
    at: number,
    inputs: unknown,
    output: unknown,
  ) => {
    batch.push({
      mode: 'start',
      req: {
        start: {
          project_id: PROJECT,
          id,
          trace_id: turn,
          op_name: `weave:///${PROJECT}/op/chat:AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG`,
          started_at: new Date(at).toISOString(),
          attributes: {},
          inputs,
          thread_id: thread,
          turn_id: turn,
          ...(parent ? { parent_id: parent } : {}),
        },
      },
    });
    batch.push({
      mode: 'end',
      req: { end: { project_id: PROJECT, id, ended_at: new Date(at + 400).toISOString(), output, summary: {} } },
    });
  };
  // Each turn resends the conversation so far, as chat applications do.
  const history: { role: string; content: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const turn = newId();
    turns.push(turn);
    history.push({ role: 'user', content: `question ${i + 1}` });
    const answer = { role: 'assistant', content: `answer ${i + 1}` };
    call(turn, 'support-42', turn, null, t0 + i * 60_000, { messages: [...history] }, answer);
    history.push(answer);
    call(newId(), 'support-42', turn, turn, t0 + i * 60_000 + 10, { step: 'retrieve' }, 'docs');
  }
  const other = newId();
  call(other, 'support-7', other, null, t0 - 3_600_000, { messages: [{ role: 'user', content: 'older' }] }, 'ok');
  const r = await fetch(`${w.url}/call/upsert_batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ batch }),
  });
  assert.equal(r.status, 200, await r.text());
});
after(async () => {
  await browser?.close();
  await w?.close();
});

test('threads newest first; a thread opens as its turns, in order, with their messages', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/threads/threads`);
  await page.locator('[data-testid=threads] li[data-id]').nth(1).waitFor();
  assert.deepEqual(
    await page
      .locator('[data-testid=threads] li[data-id]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))),
    ['support-42', 'support-7'],
  );
  assert.match(await page.locator('[data-testid=threads] li[data-id="support-42"]').innerText(), /3 turns/);
  await page.locator('[data-testid=threads] li[data-id="support-42"]').click();
  await page.waitForURL(/thread=support-42/);
  await page.locator('[data-testid=turn]').nth(2).waitFor();
  assert.deepEqual(
    await page.locator('[data-testid=turn]').evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))),
    turns,
  );
  assert.match(await page.locator('[data-testid=turn]').first().innerText(), /question 1[\s\S]*answer 1/);
  // Each later turn shows the message it adds; the history it resends is folded, and counted.
  for (const i of [1, 2]) {
    const turn = page.locator('[data-testid=turn]').nth(i);
    assert.equal(await turn.locator('[data-testid=earlier-messages] summary').innerText(), `${2 * i} earlier messages`);
    const shown = await turn.innerText();
    assert.match(shown, new RegExp(`question ${i + 1}[\\s\\S]*answer ${i + 1}`));
    assert.doesNotMatch(shown, /question 1|answer 1\b/, 'the history stays folded');
  }
  assert.equal(await page.locator('[data-testid=turn]').first().locator('[data-testid=earlier-messages]').count(), 0);
  await page.locator('[data-testid=turn]').nth(2).locator('[data-testid=earlier-messages] summary').click();
  assert.match(await page.locator('[data-testid=turn]').nth(2).innerText(), /question 1[\s\S]*answer 2/);
  await shot(page, 'threads-light');
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.locator('[data-testid=turn]').nth(2).waitFor();
  await shot(dark.page, 'threads-dark');
  await dark.context.close();
  await page.reload();
  await page.locator('[data-testid=turn]').nth(2).waitFor();
  await page.locator('[data-testid=turn]').nth(1).getByRole('link', { name: 'trace →' }).click();
  await page.waitForURL(`${w.url}/ui/ui-team/threads/calls/${turns[1]}`);
  assert.deepEqual(errors, []);
  await context.close();
});
