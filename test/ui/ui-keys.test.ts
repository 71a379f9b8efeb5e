// Keys mode in the browser: the UI asks once for a key, keeps it for the session (or, when
// asked, across sessions), shows only what the key may read, and says clearly when a key is
// wrong. The page itself loads without a key; the data does not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newId } from '../helpers/calls.js';
import { launch, openPage, shot } from './browser.js';
import { batchItems, op } from './seed.js';

let t: TestApp;
let url: string;
let browser: Browser;
let reader: string;
before(async () => {
  t = await startTestApp({
    keys: [
      { user: 'rita', entity: 'team-a', role: 'reader' },
      { user: 'wes', entity: 'team-a', role: 'writer' },
      { user: 'otto', entity: 'team-b', role: 'writer' },
    ],
  });
  url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launch();
  reader = t.keys[0]!.key;
  const seed = async (project: string, key: string) => {
    const calls = [
      {
        id: newId(),
        trace_id: newId(),
        op: op(project, 'work'),
        started: Date.UTC(2026, 10, 2),
        ended: Date.UTC(2026, 10, 2) + 5,
        inputs: { project },
      },
    ];
    const res = await fetch(`${url}/call/upsert_batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ batch: batchItems(project, calls) }),
    });
    assert.equal(res.status, 200, await res.text());
  };
  await seed('team-a/app', t.keys[1]!.key);
  await seed('team-b/secret', t.keys[2]!.key);
});
after(async () => {
  await browser?.close();
  await t?.close();
});

test('the UI asks for a key, lists only what it may read, and keeps it for the session only', async () => {
  const { page, context, external } = await openPage(browser, url);
  await page.goto(`${url}/ui/`);
  const prompt = page.locator('[data-testid=key-prompt]');
  await prompt.waitFor();
  assert.match(await prompt.innerText(), /API key required[\s\S]*Missing API key/);
  await shot(page, 'keys-prompt-light');
  await prompt.locator('input[type=password]').fill('weft_not_a_real_key_0000000000000000000000000');
  await prompt.locator('button[type=submit]').click();
  await page.waitForFunction(() =>
    /Invalid or revoked API key/.test(document.querySelector('[data-testid=key-prompt]')?.textContent ?? ''),
  );

  await prompt.locator('input[type=password]').fill(reader);
  await prompt.locator('button[type=submit]').click();
  await page.locator('[data-testid=projects] tr[data-id="team-a/app"]').waitFor();
  assert.equal(await page.locator('[data-testid=projects] tr[data-id]').count(), 1);
  assert.equal(await prompt.count(), 0);

  // The reader opens its project's calls; the key travels as the SDKs send it.
  const sent = page.waitForRequest((r) => r.url().endsWith('/calls/query_stats'));
  await page.locator('[data-testid=projects] a').click();
  assert.equal((await sent).headers().authorization, `Basic ${Buffer.from(`api:${reader}`).toString('base64')}`);
  await page.locator('[data-testid=call-row][data-id]').waitFor();

  // Another entity's project: refused, and said so.
  await page.goto(`${url}/ui/team-b/secret/calls`);
  await prompt.waitFor();
  assert.match(await prompt.innerText(), /Not allowed/);

  // Kept for the session: a reload needs no key; a new browser context asks again.
  await page.goto(`${url}/ui/`);
  await page.locator('[data-testid=projects] tr[data-id="team-a/app"]').waitFor();
  const fresh = await openPage(browser, url);
  await fresh.page.goto(`${url}/ui/`);
  await fresh.page.locator('[data-testid=key-prompt]').waitFor();
  await fresh.context.close();
  assert.deepEqual(external, []);
  await context.close();
});

test('"remember" keeps the key across sessions until "Forget key"', async () => {
  const { page, context } = await openPage(browser, url);
  await page.goto(`${url}/ui/`);
  const prompt = page.locator('[data-testid=key-prompt]');
  await prompt.locator('input[type=password]').fill(reader);
  await prompt.locator('input[type=checkbox]').check();
  await prompt.locator('button[type=submit]').click();
  await page.locator('[data-testid=projects] tr[data-id="team-a/app"]').waitFor();
  const state = await context.storageState();
  const again = await browser.newContext({ storageState: state });
  const p2 = await again.newPage();
  await p2.goto(`${url}/ui/`);
  await p2.locator('[data-testid=projects] tr[data-id="team-a/app"]').waitFor();
  await p2.getByRole('button', { name: 'Forget key' }).click();
  await p2.reload();
  await p2.locator('[data-testid=key-prompt]').waitFor();
  await again.close();
  await context.close();
});
