// The UI's frame against a Weft seeded by the real weave SDK: the projects page, a project's
// calls, a call inside its trace, themes, shortcuts; nothing ever leaves the host.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { assertRanCleanly, eventually, runSdk, startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { jsonl } from '../helpers/calls.js';
import { launch, openPage, shot } from './browser.js';

const PROJECT = 'ui-team/agent';
let w: WeftServer;
let browser: Browser;
before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  const run = await runSdk(
    w.url,
    PROJECT,
    `
  const lookup = weave.op(async function lookup(city) { throw new Error('no weather for ' + city); });
  const chat = weave.op(async function chat(messages) {
    return { role: 'assistant', content: 'It is sunny in Paris.' };
  });
  const answer = weave.op(async function answer(question) {
    try { await lookup('Atlantis'); } catch (e) {}
    const reply = await chat([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: question }]);
    return reply.content;
  });
  out.first = await answer('Weather in Paris?');
  out.second = await answer('And tomorrow?');
  `,
  );
  assertRanCleanly(run);
  await eventually(async () => {
    const calls = jsonl((await w.t.post('/calls/stream_query', { project_id: PROJECT })).text);
    return calls.length === 6 && calls.every((c) => c.ended_at) ? calls : null;
  }, 'six ended calls');
});
after(async () => {
  await browser?.close();
  await w?.close();
});

test('GET / opens the projects page; a project links to its calls; nothing leaves the host', async () => {
  const { page, context, external, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/`);
  assert.equal(new URL(page.url()).pathname, '/ui/');
  const row = page.locator(`[data-testid=projects] tr[data-id="${PROJECT}"]`);
  await row.waitFor();
  assert.match(await row.innerText(), /ui-team\/agent\s+6\s/);
  await shot(page, 'projects-light');
  await row.locator('a').click();
  await page.waitForURL(`${w.url}/ui/ui-team/agent/calls`);
  await page.locator('[data-testid=call-row][data-id]').first().waitFor();
  // The total comes from its own request (/calls/query_stats), which may answer after the rows.
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent !== 'Counting…');
  assert.equal(await page.locator('[data-testid=calls-total]').innerText(), '2 traces');
  const texts = await page.locator('[data-testid=call-row]').allInnerTexts();
  assert.ok(
    texts.every((t) => t.includes('answer')),
    texts.join('|'),
  );
  await shot(page, 'calls-light');
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a call opens inside its trace: tree, statuses, detail with chat and exception; the selection survives reload', async () => {
  const { page, context, external, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/agent/calls`);
  await page.locator('[data-testid=call-row][data-id]').first().click();
  await page.waitForURL(/\/ui\/ui-team\/agent\/calls\/[0-9a-f-]+$/);
  const tree = page.locator('[data-testid=tree-row]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tree-row]').length === 3);
  assert.deepEqual(await tree.allInnerTexts().then((t) => t.map((x) => x.split('\n')[0])), [
    'answer',
    'lookup',
    'chat',
  ]);
  assert.equal(await tree.nth(1).locator('[data-status]').getAttribute('data-status'), 'error');
  await page.locator('[data-testid=call-detail] [data-testid=inputs]').waitFor();
  assert.match(await page.locator('[data-testid=inputs]').innerText(), /Weather in Paris\?|And tomorrow\?/);

  await tree.nth(2).click();
  await page.waitForURL(/call=/);
  await page.locator('[data-testid=chat] [data-role=user]').waitFor();
  assert.match(await page.locator('[data-testid=chat] [data-role=system]').innerText(), /Be brief\./);
  await page.keyboard.press('k');
  await page.locator('[data-testid=exception]').waitFor();
  assert.match(await page.locator('[data-testid=exception]').innerText(), /no weather for Atlantis/);
  const selected = new URL(page.url()).searchParams.get('call');
  assert.ok(selected);
  await shot(page, 'trace-light');
  // The op's code, from the op version the SDK saved.
  await page.locator('[data-testid=tab-code]').click();
  await page.locator('[data-testid=op-code]').waitFor();
  assert.match(await page.locator('[data-testid=op-code]').innerText(), /lookup[\s\S]*no weather for/);
  await page.locator('[data-testid=tab-io]').click();
  await page.reload();
  await page.locator(`[data-testid=tree-row][data-id="${selected}"][aria-selected=true]`).waitFor();
  await page.locator('[data-testid=exception]').waitFor();
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the dark theme, from the OS or the toggle, and remembered', async () => {
  const { page, context } = await openPage(browser, w.url, { theme: 'dark' });
  await page.goto(`${w.url}/ui/ui-team/agent/calls`);
  await page.locator('[data-testid=call-row][data-id]').first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await shot(page, 'calls-dark');
  await page.locator('[data-testid=call-row][data-id]').first().click();
  await page.locator('[data-testid=call-detail]').waitFor();
  await shot(page, 'trace-dark');
  await page.locator('[data-testid=theme-toggle]').click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await page.reload();
  await page.locator('[data-testid=call-detail]').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await context.close();
});

test('? lists the shortcuts; g p goes to the projects; an unknown view says so', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/agent/calls`);
  await page.locator('[data-testid=call-row][data-id]').first().waitFor();
  await page.keyboard.press('?');
  await page.locator('[data-testid=shortcuts]').waitFor();
  await page.keyboard.press('Escape');
  await page.locator('[data-testid=shortcuts]').waitFor({ state: 'detached' });
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  await page.waitForURL(`${w.url}/ui/`);
  await page.goto(`${w.url}/ui/no/such/view/here`);
  await page.locator('[data-testid=not-found]').waitFor();
  await context.close();
});

test('an empty project says how to send its first trace, with this server and project filled in', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    await p.page.goto(`${w.url}/ui/ui-team/empty/calls`);
    await p.page.locator('[data-testid=first-trace]').waitFor();
    const env = await p.page.locator('[data-testid=first-trace-python-env]').innerText();
    assert.match(env, new RegExp(`WANDB_BASE_URL=${w.url}\\n`));
    assert.match(
      await p.page.locator('[data-testid=first-trace-python]').innerText(),
      /weave\.init\("ui-team\/empty"\)/,
    );
    assert.match(
      await p.page.locator('[data-testid=first-trace-js-env]').innerText(),
      new RegExp(`WF_TRACE_SERVER_URL=${w.url}`),
    );
    assert.match(await p.page.locator('[data-testid=first-trace-js]').innerText(), /weave\.init\('ui-team\/empty'\)/);
    assert.match(
      await p.page.locator('[data-testid=first-trace-otlp]').innerText(),
      new RegExp(`ENDPOINT=${w.url}/otel/v1/traces[\\s\\S]*project_id=ui-team/empty`),
    );
    await shot(p.page, `calls-empty-project-${theme}`);
    // A filter that matches nothing is no empty project.
    await p.page.goto(`${w.url}/ui/${PROJECT}/calls?op=no-such-op`);
    await p.page.locator('[data-testid=no-calls]').waitFor();
    assert.equal(await p.page.locator('[data-testid=first-trace]').count(), 0);
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('every view names itself in the tab title: view, project, Weft', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  const [root] = jsonl(
    (await w.t.post('/calls/stream_query', { project_id: PROJECT, filter: { trace_roots_only: true } })).text,
  );
  const views: [string, string][] = [
    ['/ui/', 'Projects · Weft'],
    [`/ui/${PROJECT}/calls`, `Calls · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/calls/${root!.id}`, `Trace · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/objects`, `Objects · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/ops`, `Ops · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/objects/answer`, `answer: versions · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/objects/answer/diff`, `answer: compare versions · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/threads`, `Threads · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/evaluations`, `Evaluations · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/monitor`, `Monitor · ${PROJECT} · Weft`],
    [`/ui/${PROJECT}/agents`, `Agents · ${PROJECT} · Weft`],
  ];
  for (const [path, title] of views) {
    await page.goto(`${w.url}${path}`);
    await page
      .waitForFunction((t) => document.title === t, title)
      .catch(async () => {
        assert.fail(`${path}: the title is "${await page.title()}", not "${title}"`);
      });
  }
  assert.deepEqual(errors, []);
  await context.close();
});
