// The object views over a project seeded by the real weave SDK: ops, a 2,000-row Dataset,
// a prompt published in three versions, a model, a scorer and a plain object. Grouping by
// kind, versions newest first, a URL-driven diff, tags written through the UI, a virtual
// dataset table with deep-linked rows, an op's code; light and dark screenshots of each.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRanCleanly, runSdk, startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { launch, openPage, shot, type UiPage } from './browser.js';

const PROJECT = 'ui-team/objects';
const ROWS = 2000;
let w: WeftServer;
let browser: Browser;
/** The prompt's three digests, oldest first. */
let prompt: string[];

before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  const run = await runSdk(
    w.url,
    PROJECT,
    `
  const greet = weave.op(async function greet(name) {
    const words = ['hello', name];
    return words.join(' ');
  }, { parameterNames: ['name'] });
  const scoreAnswer = weave.op(async function scoreAnswer(answer, expected) { return { correct: answer === expected }; }, { parameterNames: ['answer', 'expected'] });
  await greet('ada');
  // greet v1: the same op with changed code.
  const greetAgain = weave.op(async function greet(name) {
    const words = ['hello there', name];
    return words.join(' ');
  }, { parameterNames: ['name'] });
  await greetAgain('bob');
  await scoreAnswer('4', '4');

  const rows = [];
  for (let i = 0; i < ${ROWS}; i++) rows.push({ id: i, question: 'What is ' + i + ' + ' + i + '?', expected: String(2 * i), meta: { difficulty: i % 3 === 0 ? 'hard' : 'easy', source: 'synthetic', notes: 'x'.repeat(400) } });
  await new weave.Dataset({ name: 'arithmetic', description: '${ROWS} sums', rows }).save();

  class TunedPrompt extends weave.StringPrompt {
    constructor(p) { super(p); this.model = p.model; this.temperature = p.temperature; this.max_tokens = p.max_tokens; this.stop = p.stop; }
  }
  out.prompt = [];
  for (const v of [
    { content: 'Answer briefly: {question}', temperature: 0.2 },
    { content: 'Answer briefly: {question}', temperature: 0.5 },
    { content: 'Answer in one word: {question}', temperature: 0.7 },
  ]) out.prompt.push((await client.publish(new TunedPrompt({ name: 'answer-prompt', model: 'gpt-4o-mini', max_tokens: 64, stop: ['\\n'], ...v }))).digest);

  class Model extends weave.WeaveObject { constructor(p) { super(p); this.model_name = p.model_name; this.temperature = p.temperature; } }
  class QaModel extends Model {}
  await client.publish(new QaModel({ name: 'qa-model', model_name: 'gpt-4o-mini', temperature: 0 }));
  class Scorer extends weave.WeaveObject {}
  class ExactMatch extends Scorer { constructor(p) { super(p); this.case_sensitive = false; } }
  await client.publish(new ExactMatch({ name: 'exact-match' }));
  // v0, v1, then v0's content again: two versions, and the latest is v0 (index + 1 would say 1).
  await client.publish({ threshold: 0.8, retries: 2 }, 'run-config');
  await client.publish({ threshold: 0.9, retries: 2 }, 'run-config');
  await client.publish({ threshold: 0.8, retries: 2 }, 'run-config');
  `,
    { timeoutMs: 120_000 },
  );
  assertRanCleanly(run);
  prompt = run.result.prompt;
  assert.equal(prompt.length, 3);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const BASE = () => `${w.url}/ui/ui-team/objects`;
const text = (page: Page, testid: string) => page.locator(`[data-testid=${testid}]`).first().innerText();
const clean = (p: UiPage) => {
  assert.deepEqual(p.external, [], 'requests outside Weft');
  assert.deepEqual(p.errors, [], 'console errors');
};
/** Top-level keys of the JSON lines in a list of diff lines (`  "key": value,`). */
const keysOf = (lines: string[]) =>
  [...new Set(lines.map((l) => /^ {2}"([^"]+)":/.exec(l)?.[1]).filter((k): k is string => k !== undefined))].sort();

test('the objects page lists every object grouped by kind, with a name filter in the URL', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    await p.page.goto(`${BASE()}/objects`);
    await p.page.locator('[data-testid=object-row]').first().waitFor();
    const groups = await p.page.$$eval('[data-testid=object-group]', (els) =>
      els.map((g) => [
        g.getAttribute('data-group'),
        [...g.querySelectorAll('[data-testid=object-row]')].map((r) => r.getAttribute('data-id')).sort(),
      ]),
    );
    assert.deepEqual(groups, [
      ['ops', ['greet', 'scoreAnswer']],
      ['datasets', ['arithmetic']],
      ['models', ['qa-model']],
      ['prompts', ['answer-prompt']],
      ['scorers', ['exact-match']],
      ['other', ['run-config']],
    ]);
    assert.equal(await text(p.page, 'objects-total'), '7 objects');
    const promptRow = p.page.locator('[data-testid=object-row][data-id=answer-prompt]');
    const configRow = p.page.locator('[data-testid=object-row][data-id=run-config]');
    await configRow.locator('[data-testid=object-versions]', { hasText: /^\d+$/ }).waitFor();
    assert.equal(await promptRow.locator('[data-testid=object-versions]').innerText(), '3');
    assert.equal(
      await configRow.locator('[data-testid=object-versions]').innerText(),
      '2',
      'live versions, not v0 + 1',
    );
    assert.equal(
      await promptRow.locator('[data-testid=alias]').count(),
      0,
      'every row is the latest: "latest" goes without saying',
    );
    await shot(p.page, `objects-${theme}`);
    clean(p);
    await p.context.close();
  }

  const { page, context } = await openPage(browser, w.url);
  await page.goto(`${BASE()}/objects`);
  await page.locator('[data-testid=objects-filter]').fill('prompt');
  await page.waitForURL(/[?&]q=prompt/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=object-row]').length === 1);
  assert.equal(await text(page, 'objects-total'), '1 of 7 objects');
  await page.reload();
  await page.locator('[data-testid=object-row][data-id=answer-prompt]').waitFor();
  assert.equal(await page.locator('[data-testid=object-row]').count(), 1);
  assert.equal(await page.locator('[data-testid=objects-filter]').inputValue(), 'prompt');
  // One kind at a time, also in the URL.
  await page.goto(`${BASE()}/objects?kind=ops`);
  await page.locator('[data-testid=object-row]').first().waitFor();
  assert.deepEqual(
    await page.$$eval('[data-testid=object-row]', (els) => els.map((e) => e.getAttribute('data-group'))),
    ['ops', 'ops'],
  );
  // .../datasets and .../ops are the objects view on that kind.
  for (const kind of ['datasets', 'ops']) {
    await page.goto(`${BASE()}/${kind}`);
    await page.waitForURL(`${BASE()}/objects?kind=${kind}`);
    await page.locator('[data-testid=object-row]').first().waitFor();
    assert.deepEqual(
      [
        ...new Set(
          await page.$$eval('[data-testid=object-row]', (els) => els.map((e) => e.getAttribute('data-group'))),
        ),
      ],
      [kind],
    );
  }
  await context.close();
});

test('versions are listed newest first; ticking v0 and v2 opens their diff, which marks exactly the changed keys', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/objects`);
  await page.locator('[data-testid=object-row][data-id=answer-prompt] [data-testid=object-link]').click();
  await page.waitForURL(`${BASE()}/objects/answer-prompt`);
  await page.locator('[data-testid=version-row]').first().waitFor();
  const rows = await page.$$eval('[data-testid=version-row]', (els) =>
    els.map((e) => [e.getAttribute('data-version'), e.getAttribute('data-id')]),
  );
  assert.deepEqual(rows, [
    ['2', prompt[2]],
    ['1', prompt[1]],
    ['0', prompt[0]],
  ]);
  assert.equal(await text(page, 'versions-total'), '3 versions');
  await page.locator(`[data-testid=version-row][data-id="${prompt[0]}"] [data-testid=version-pick]`).check();
  await page.locator(`[data-testid=version-row][data-id="${prompt[2]}"] [data-testid=version-pick]`).check();
  await shot(page, 'object-versions-light');
  await page.locator('[data-testid=compare]').click();
  await page.waitForURL(
    (u) =>
      u.pathname.endsWith('/objects/answer-prompt/diff') &&
      u.searchParams.get('a') === prompt[0] &&
      u.searchParams.get('b') === prompt[2],
  );
  await page.locator('[data-testid=diff-row]').first().waitFor();

  const changedLines = async (side: 'left' | 'right') =>
    page.$$eval(
      `[data-testid=diff-row]:not([data-change=same]) [data-testid=diff-${side}] [data-testid=diff-text]`,
      (els) => els.map((e) => e.textContent ?? ''),
    );
  assert.deepEqual(keysOf(await changedLines('left')), ['content', 'temperature']);
  assert.deepEqual(keysOf(await changedLines('right')), ['content', 'temperature']);
  const same = await page.locator('[data-testid=diff-row][data-change=same]').count();
  assert.ok(same >= 8, `unchanged lines shown (${same})`);
  assert.match(await text(page, 'diff-summary'), /^2 changed/);
  assert.equal(await page.locator('[data-testid=diff-left] mark').first().innerText(), 'briefly');
  await shot(page, 'object-diff-light');

  // diffOnly: in the URL, hides the unchanged lines and says how many; kept on reload.
  await page.locator('[data-testid=diff-only]').check();
  await page.waitForURL(/[?&]diffOnly=1(&|$)/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=diff-row][data-change=same]').length === 0);
  assert.equal(await page.locator('[data-testid=diff-row]').count(), 2);
  assert.equal(await text(page, 'diff-hidden-total'), `${same} unchanged lines hidden`);
  const folded = await page.$$eval('[data-testid=diff-hidden]', (els) =>
    els.reduce((s, e) => s + Number(e.getAttribute('data-count')), 0),
  );
  assert.equal(folded, same);
  await shot(page, 'object-diff-only-light');
  const url = page.url();
  await page.reload();
  await page.locator('[data-testid=diff-row]').first().waitFor();
  assert.equal(await page.locator('[data-testid=diff-row]').count(), 2);
  assert.ok(await page.locator('[data-testid=diff-only]').isChecked());
  assert.equal(page.url(), url);

  // Swap: the sides trade places in the URL and on screen.
  await page.locator('[data-testid=diff-swap]').click();
  await page.waitForURL((u) => u.searchParams.get('a') === prompt[2] && u.searchParams.get('b') === prompt[0]);
  await page.waitForFunction(
    (d) => document.querySelector('[data-testid=diff-side]')?.getAttribute('data-id') === d,
    prompt[2],
  );
  assert.match((await changedLines('left')).join('\n'), /"temperature": 0\.7/);
  clean(p);
  await p.context.close();

  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(`${BASE()}/objects/answer-prompt`);
  await dark.page.locator('[data-testid=version-row]').first().waitFor();
  await shot(dark.page, 'object-versions-dark');
  await dark.page.goto(`${BASE()}/objects/answer-prompt/diff?a=v0&b=v2`);
  // "v<N>" in a link becomes the digest it names.
  await dark.page.waitForURL((u) => u.searchParams.get('a') === prompt[0] && u.searchParams.get('b') === prompt[2]);
  await dark.page.locator('[data-testid=diff-row]').first().waitFor();
  await shot(dark.page, 'object-diff-dark');
  clean(dark);
  await dark.context.close();
});

test('a tag added in the UI is listed by GET /tags, and removed again', async () => {
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/objects/answer-prompt/versions/${prompt[1]}`);
  await page.locator('[data-testid=tag-editor]').waitFor();
  assert.equal(await text(page, 'version-digest'), prompt[1]);
  await page.locator('[data-testid=tag-input]').fill('reviewed');
  await page.locator('[data-testid=tag-add]').click();
  await page.locator('[data-testid=tag-editor] [data-testid=tag][data-tag=reviewed]').waitFor();
  const tags = await w.t.get(`/tags?project_id=${encodeURIComponent(PROJECT)}`);
  assert.deepEqual(tags.body.tags, ['reviewed']);
  await shot(page, 'object-version-tagged-light');
  // The versions list shows it on that version only.
  await page.locator('[data-testid=all-versions]').click();
  await page
    .locator(`[data-testid=version-row][data-id="${prompt[1]}"] [data-testid=tag][data-tag=reviewed]`)
    .waitFor();
  assert.equal(await page.locator('[data-testid=version-row] [data-testid=tag]').count(), 1);
  await page.goBack();
  await page.locator('[data-testid=tag-remove]').click();
  await page.locator('[data-testid=tag-editor] [data-testid=tag]').waitFor({ state: 'detached' });
  assert.deepEqual((await w.t.get(`/tags?project_id=${encodeURIComponent(PROJECT)}`)).body.tags, []);
  clean(p);
  // The server's rules answer in the UI.
  await page.locator('[data-testid=alias-input]').fill('latest');
  await page.locator('[data-testid=alias-add]').click();
  await page.locator('[data-testid=tag-editor] [data-testid=error-banner]').waitFor();
  p.errors.splice(0); // the refused request's 400 is logged by the browser
  await p.context.close();
});

test(`a ${ROWS.toLocaleString('en-US')}-row dataset: total, virtual scrolling to the last row, ?row= deep links`, async () => {
  const objs = (await w.t.post('/objs/query', { project_id: PROJECT, filter: { object_ids: ['arithmetic'] } })).body
    .objs;
  const digest: string = objs[0].digest;
  const p = await openPage(browser, w.url);
  const { page } = p;
  await page.goto(`${BASE()}/objects/arithmetic/versions/${digest}`);
  await page.locator('[data-testid=dataset-row][data-index="0"][data-id]').waitFor();
  assert.equal(await text(page, 'dataset-total'), '2,000 rows');
  assert.deepEqual(await page.$$eval('[data-testid=dataset-column]', (els) => els.map((e) => e.textContent)), [
    'id',
    'expected',
    'meta',
    'question',
  ]);
  // A cell previews its value: never the whole of it.
  const meta = await page.locator('[data-testid=dataset-row][data-index="0"] span[data-kind=object]').innerText();
  assert.ok(meta.length <= 120 && meta.endsWith('…'), meta);
  await shot(page, 'dataset-light');
  await page.locator('[data-testid=dataset-table]').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const last = page.locator(`[data-testid=dataset-row][data-index="${ROWS - 1}"][data-id]`);
  await last.waitFor();
  assert.match(await last.innerText(), new RegExp(`What is ${ROWS - 1} \\+ ${ROWS - 1}\\?`));
  assert.ok((await page.locator('[data-testid=dataset-row]').count()) < 100, 'the DOM holds only the rows on screen');
  await last.click();
  await page.waitForURL(new RegExp(`[?&]row=${ROWS - 1}`));
  await page
    .locator(`[data-testid=row-detail][data-index="${ROWS - 1}"] [data-testid=row-value]`)
    .getByText(`What is ${ROWS - 1} + ${ROWS - 1}?`)
    .waitFor();
  clean(p);
  await p.context.close();

  // A fresh browser opens the link with that row selected and shown whole.
  const fresh = await openPage(browser, w.url, { theme: 'dark' });
  await fresh.page.goto(`${BASE()}/objects/arithmetic/versions/${digest}?row=1234`);
  const detail = fresh.page.locator('[data-testid=row-detail][data-index="1234"] [data-testid=row-value]');
  await detail.getByText('What is 1234 + 1234?').waitFor();
  await detail.getByText('x'.repeat(400)).waitFor();
  await fresh.page.locator('[data-testid=dataset-row][data-index="1234"][aria-selected=true]').waitFor();
  await shot(fresh.page, 'dataset-row-dark');
  await fresh.page.keyboard.press('j');
  await fresh.page.waitForURL(/[?&]row=1235/);
  await detail.waitFor({ state: 'detached' });
  await fresh.page.locator('[data-testid=row-detail][data-index="1235"]').getByText('What is 1235 + 1235?').waitFor();
  clean(fresh);
  await fresh.context.close();

  const light = await openPage(browser, w.url);
  await light.page.goto(`${BASE()}/objects/arithmetic/versions/${digest}?row=3`);
  await light.page.locator('[data-testid=row-detail] [data-testid=row-value]').getByText('What is 3 + 3?').waitFor();
  await shot(light.page, 'dataset-row-light');
  await light.context.close();
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(`${BASE()}/objects/arithmetic/versions/${digest}`);
  await dark.page.locator('[data-testid=dataset-row][data-index="0"][data-id]').waitFor();
  await shot(dark.page, 'dataset-dark');
  await dark.context.close();
});

test('an op version shows its code, and links to its calls', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    await page.goto(`${BASE()}/objects/greet`);
    await page.locator('[data-testid=version-link]').first().click();
    const code = page.locator('[data-testid=op-code]');
    await code.waitFor();
    assert.match(await code.innerText(), /function greet\(name\)/);
    assert.match(await code.innerText(), /words\.join/);
    assert.ok((await code.locator('.token').count()) > 5, 'highlighted');
    await shot(page, `op-code-${theme}`);
    if (theme === 'light') {
      await page.locator('[data-testid=tab-value]').click();
      await page.waitForURL(/tab=value/);
      await page.locator('[data-testid=object-value]').waitFor();
      await page.locator('[data-testid=tab-code]').click();
      await code.waitFor();
      await page.locator('[data-testid=op-calls]').click();
      await page.waitForURL((u) => u.pathname === '/ui/ui-team/objects/calls' && u.searchParams.get('op') === 'greet');
    }
    clean(p);
    await p.context.close();
  }
});

test('two versions of an op compare their code, not the file digests', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    await page.goto(`${BASE()}/objects/greet/diff?a=v0&b=v1`);
    await page.locator('[data-testid=diff-row]').first().waitFor();
    assert.equal(await text(page, 'diff-code'), 'code · obj.py');
    const lines = (side: string) =>
      page.$$eval(`[data-testid=diff-row] [data-testid=diff-${side}] [data-testid=diff-text]`, (els) =>
        els.map((e) => e.textContent ?? ''),
      );
    const [left, right] = [await lines('left'), await lines('right')];
    assert.match(left[0]!, /function greet\(name\)/);
    assert.ok(!left.join('\n').includes('"obj.py"'), 'the code, not the files map');
    const changed = await page.$$eval(
      '[data-testid=diff-row]:not([data-change=same]) [data-testid=diff-right] [data-testid=diff-text]',
      (els) => els.map((e) => e.textContent ?? ''),
    );
    assert.deepEqual(
      changed.map((l) => l.trim()),
      ["const words = ['hello there', name];"],
    );
    assert.equal(await page.locator('[data-testid=diff-right] mark').first().innerText(), ' there');
    assert.equal(right.length, left.length);
    assert.match(await text(page, 'diff-summary'), /^1 changed/);
    await shot(page, `op-diff-${theme}`);
    clean(p);
    await p.context.close();
  }
});

test('a plain object shows its value; an unknown version says so', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openPage(browser, w.url, { theme });
    const { page } = p;
    await page.goto(`${BASE()}/objects/qa-model/versions/latest`);
    await page.locator('[data-testid=object-value]').getByText('gpt-4o-mini').waitFor();
    assert.equal(
      await text(page, 'version-digest'),
      (await w.t.post('/obj/read', { project_id: PROJECT, object_id: 'qa-model', digest: 'latest' })).body.obj.digest,
    );
    await shot(page, `object-value-${theme}`);
    clean(p);
    await page.goto(`${BASE()}/objects/qa-model/versions/nope`);
    await page.locator('[data-testid=no-version]').waitFor();
    assert.deepEqual(p.external, []);
    await p.context.close();
  }
});
