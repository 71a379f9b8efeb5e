// The calls table over 3,000 traces: server-side filter, sort and count; the URL holds the
// whole view (reload and a fresh browser show the same rows); virtual scrolling keeps the
// DOM small; the keyboard moves and opens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
      id,
      trace_id: newId(),
      op: op(PROJECT, i % 2 === 0 ? 'predict' : 'score'),
      started: T0 + i * 1000,
      ended: T0 + i * 1000 + latency(i),
      // Only the oldest call has `rare`: no page of the newest calls would offer it.
      inputs: { group: i % 3 === 0 ? 'a' : 'b', i, ...(i === 0 ? { rare: { note: 'only here' } } : {}) },
      output: `answer ${i}`,
      ...(i % 50 === 0 ? { exception: `failed ${i}` } : {}),
    });
  }
  await upsert(w.url, PROJECT, calls);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const BASE = () => `${w.url}/ui/ui-team/table/calls`;
async function firstIds(page: Page, n: number): Promise<string[]> {
  await page
    .locator('[data-testid=call-row][data-index="0"][data-id]')
    .waitFor()
    .catch(async (e) => {
      console.log('# no first row at', page.url(), (await page.locator('main').innerText()).slice(0, 600));
      throw e;
    });
  return (await ids(page, '[data-testid=call-row][data-id]')).slice(0, n);
}
const expected = (pred: (i: number) => boolean, by: (i: number) => number) =>
  calls
    .map((c, i) => [i, c] as const)
    .filter(([i]) => pred(i))
    .sort((a, b) => by(b[0]) - by(a[0]))
    .map(([, c]) => c.id);

test('newest first, with the total; scrolling to the end fetches that window and keeps the DOM small', async () => {
  const { page, context, external, errors } = await openPage(browser, w.url);
  await page.goto(BASE());
  assert.deepEqual(
    await firstIds(page, 5),
    expected(
      () => true,
      (i) => i,
    ).slice(0, 5),
  );
  // Input and output previews by default: several arguments as name: value pairs.
  const newest = page.locator('[data-testid=call-row][data-index="0"]');
  assert.equal(await newest.locator('[data-col=input]').innerText(), `group: b, i: ${N - 1}`);
  assert.equal(await newest.locator('[data-col=output]').innerText(), `answer ${N - 1}`);
  // The total comes from its own request (/calls/query_stats), which may answer after the rows.
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent !== 'Counting…');
  assert.equal(await page.locator('[data-testid=calls-total]').innerText(), '3,000 traces');
  const scroller = page.locator('[data-testid=calls-table]');
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const last = page.locator(`[data-testid=call-row][data-index="${N - 1}"][data-id]`);
  await last.waitFor();
  assert.equal(await last.getAttribute('data-id'), calls[0]!.id);
  assert.ok((await page.locator('[data-testid=call-row]').count()) < 300);
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight / 2;
  });
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
  // A value that cannot match its field's type is refused, saying why; nothing is filtered.
  await page.locator('[data-testid=filter-field]').fill('summary.weave.latency_ms');
  await page.locator('[data-testid=filter-op]').selectOption('gt');
  await page.locator('[data-testid=filter-value]').fill('slow');
  await page.locator('[data-testid=filter-add]').click();
  assert.equal(
    await page.locator('[data-testid=filter-problem]').innerText(),
    'summary.weave.latency_ms is a number: "slow" is not one',
  );
  assert.equal(new URL(page.url()).search, '');
  await page.locator('[data-testid=filter-field]').fill('');
  await page.locator('[data-testid=filter-value]').fill('');
  await page.locator('[data-testid=filter-value]').blur();
  await page.keyboard.press('/');
  await page.keyboard.type('inputs.group');
  await page.locator('[data-testid=filter-op]').selectOption('eq');
  await page.locator('[data-testid=filter-value]').fill('a');
  await page.locator('[data-testid=filter-add]').click();
  await page.waitForURL(/f=/);
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '1,000 traces');
  const want = expected(
    (i) => i % 3 === 0,
    (i) => i,
  ).slice(0, 10);
  assert.deepEqual(await firstIds(page, 10), want);
  await page.locator('[data-testid=errors-only]').check();
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '20 traces');
  const url = page.url();
  assert.deepEqual(
    await firstIds(page, 20),
    expected(
      (i) => i % 150 === 0,
      (i) => i,
    ),
  );
  await shot(page, 'calls-filtered-light');

  await page.reload();
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-total]')?.textContent === '20 traces');
  assert.deepEqual(
    await firstIds(page, 20),
    expected(
      (i) => i % 150 === 0,
      (i) => i,
    ),
  );
  const fresh = await openPage(browser, w.url);
  await fresh.page.goto(url);
  await fresh.page.waitForFunction(
    () => document.querySelector('[data-testid=calls-total]')?.textContent === '20 traces',
  );
  assert.deepEqual(
    await firstIds(fresh.page, 20),
    expected(
      (i) => i % 150 === 0,
      (i) => i,
    ),
  );
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
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=call-row][data-index="0"]')?.textContent?.includes('998 ms'),
  );
  const desc = await firstIds(page, 30);
  const latencies = desc.map((id) => latency(calls.findIndex((c) => c.id === id)));
  assert.deepEqual(
    latencies,
    [...latencies].sort((a, b) => b - a),
  );
  assert.equal(latencies[0], 998);
  await page.locator('[data-testid=sort-latency]').click();
  await page.waitForURL(/latency_ms(%3A|:)asc/);
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=call-row][data-index="0"]')?.textContent?.includes('<1 ms'),
  );
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

test('a column picked from every key of the calls shows truncated values, sorts on the server, and is kept in the URL', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(BASE());
  await firstIds(page, 1);
  await page.locator('[data-testid=columns-button]').click();
  // Offered: the keys of all 3,000 calls, the oldest one's too (two levels deep).
  await page.locator('[data-testid=column-picker] input[data-path="inputs.rare.note"]').waitFor();
  const offered = await page.$$eval('[data-testid=column-picker] input[data-path]', (els) =>
    els.map((e) => e.getAttribute('data-path')),
  );
  assert.deepEqual(offered, ['inputs.group', 'inputs.i', 'inputs.rare', 'inputs.rare.note', 'output']);
  await page.locator('[data-testid=column-picker] input[data-path="inputs.group"]').check();
  await page.waitForURL(/cols=/);
  await page.locator('[data-testid=call-row][data-index="0"] [data-col="path:inputs.group"]').waitFor();
  await page.locator('[data-testid=columns-button]').click();
  await page.locator('[data-testid="sort-path:inputs.group"]').click();
  await page.waitForURL(/inputs\.group(%3A|:)desc/);
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid=call-row][data-index="0"] [data-col="path:inputs.group"]')?.textContent ===
      'b',
  );
  await page.locator('[data-testid="sort-path:inputs.group"]').click();
  await page.waitForURL(/inputs\.group(%3A|:)asc/);
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid=call-row][data-index="0"] [data-col="path:inputs.group"]')?.textContent ===
      'a',
  );
  await page.reload();
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid=call-row][data-index="0"] [data-col="path:inputs.group"]')?.textContent ===
      'a',
  );
  await shot(page, 'calls-columns-light');
  await context.close();
});

test('the peek drawer shows a call beside the table, follows j/k, closes with Esc, and is in the URL', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(BASE());
  const ids4 = await firstIds(page, 4);
  const peekIs = async (id: string) => {
    await page.waitForURL((u) => u.searchParams.get('peek') === id);
    await page.locator(`[data-testid=peek] [data-testid=call-detail][data-id="${id}"]`).waitFor();
  };
  for (let i = 0; i < 3; i++) await page.keyboard.press('j');
  await page.keyboard.press(' ');
  await peekIs(ids4[2]!);
  assert.match(await page.locator('[data-testid=peek] [data-testid=output]').innerText(), /answer \d+/);
  await page.keyboard.press('j');
  await peekIs(ids4[3]!);
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await peekIs(ids4[1]!);
  await shot(page, 'calls-peek-light');
  await page.keyboard.press('Escape');
  await page.waitForURL((u) => u.searchParams.get('peek') === null);
  await page.locator('[data-testid=peek]').waitFor({ state: 'detached' });
  await page.locator(`[data-testid=call-row][data-id="${ids4[0]}"] [data-testid=row-peek]`).click();
  await peekIs(ids4[0]!);
  await page.reload();
  await page.locator(`[data-testid=peek] [data-testid=call-detail][data-id="${ids4[0]}"]`).waitFor();
  await page.locator('[data-testid=peek-open]').click();
  await page.waitForURL(`${w.url}/ui/ui-team/table/calls/${ids4[0]}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('two ticked calls open side by side, their differences marked; changes only folds the rest', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(BASE());
  const [first, second] = await firstIds(page, 2);
  await page.locator(`[data-testid=call-row][data-id="${first}"] [data-testid=row-check]`).check();
  await page.locator(`[data-testid=call-row][data-id="${second}"] [data-testid=row-check]`).check();
  await page.locator('[data-testid=compare-selected]').click();
  await page.waitForURL(/\/compare\?ids=/);
  await page.locator('[data-testid=diff]').waitFor();
  const [a, b] = [calls.find((c) => c.id === first)!, calls.find((c) => c.id === second)!];
  const diff = await page.locator('[data-testid=diff]').innerText();
  assert.ok(
    diff.includes(`answer ${calls.indexOf(a)}`) && diff.includes(`answer ${calls.indexOf(b)}`),
    diff.slice(0, 400),
  );
  // inputs.i, output and latency differ (and inputs.group when the two are in different groups).
  const changed = Number((await page.locator('[data-testid=compare-counts]').innerText()).split(' ')[0]);
  assert.ok(changed >= 3, `${changed} changed lines`);
  await page.locator('[data-testid=compare-diff-only]').check();
  await page.waitForURL(/diffOnly=1/);
  await page.locator('[data-testid=diff-hidden]').first().waitFor();
  await page.reload();
  await page.locator('[data-testid=diff-hidden]').first().waitFor();
  await shot(page, 'compare-calls-light');
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.locator('[data-testid=diff-hidden]').first().waitFor();
  await shot(dark.page, 'compare-calls-dark');
  await dark.context.close();
  await context.close();
});

test('ticked calls are deleted after a confirmation; the total and the rows follow', async () => {
  const { page, context } = await openPage(browser, w.url);
  await page.goto(BASE());
  const [first, second] = await firstIds(page, 2);
  await page.locator(`[data-testid=call-row][data-id="${first}"] [data-testid=row-check]`).check();
  await page.locator(`[data-testid=call-row][data-id="${second}"] [data-testid=row-check]`).check();
  assert.equal(await page.locator('[data-testid=checked-count]').innerText(), '2 selected');
  await page.locator('[data-testid=delete-selected]').click();
  await page.locator('[data-testid=confirm-delete]').getByRole('button', { name: 'Cancel' }).click();
  assert.equal((await w.t.post('/calls/query_stats', { project_id: PROJECT })).body.count, N);
  await page.locator('[data-testid=delete-selected]').click();
  await page.locator('[data-testid=confirm-delete-button]').click();
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=calls-total]')?.textContent === `${n} traces`,
    (N - 2).toLocaleString('en-US'),
  );
  assert.equal((await w.t.post('/calls/query_stats', { project_id: PROJECT })).body.count, N - 2);
  // The total and the rows are two queries; the rows may re-render a moment after the total.
  const third = expected(
    () => true,
    (i) => i,
  )[2];
  await page
    .waitForFunction(
      (id) => document.querySelector('[data-testid=call-row][data-index="0"]')?.getAttribute('data-id') === id,
      third,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  assert.deepEqual(await firstIds(page, 1), [third]);
  assert.equal(await page.locator(`[data-testid=call-row][data-id="${first}"]`).count(), 0);
  await context.close();
});

test('export writes every filtered call, as CSV with the table columns or as whole calls in JSON Lines', async () => {
  const { page, context } = await openPage(browser, w.url);
  // The Blob path (the File System Access picker cannot be driven headless).
  await context.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await page.goto(`${BASE()}?op=score&cols=${encodeURIComponent('["inputs.group"]')}`);
  await firstIds(page, 1);
  const want = (
    await w.t.post('/calls/query_stats', {
      project_id: PROJECT,
      filter: { trace_roots_only: true },
      query: {
        $expr: {
          $contains: { input: { $getField: 'op_name' }, substr: { $literal: 'score' }, case_insensitive: true },
        },
      },
    })
  ).body.count;
  assert.ok(want > 1000);
  const csvDownload = page.waitForEvent('download');
  await page.locator('[data-testid=export]').selectOption('csv');
  const csv = await (await csvDownload).path().then((p) => readFileSync(p, 'utf8'));
  const lines = csv.trimEnd().split('\n');
  assert.equal(
    lines[0],
    'id,trace_id,parent_id,op_name,display_name,status,started_at,ended_at,latency_ms,tokens,cost_usd,exception,inputs.group',
  );
  assert.equal(lines.length, want + 1);
  const byId = new Map(calls.map((c, i) => [c.id, i]));
  for (const line of lines.slice(1, 50)) {
    const cells = line.split(',');
    const i = byId.get(cells[0]!)!;
    assert.equal(i % 2, 1, 'only score calls');
    assert.equal(cells[12], i % 3 === 0 ? 'a' : 'b');
    assert.equal(Number(cells[8]), latency(i));
  }
  const jsonlDownload = page.waitForEvent('download');
  await page.locator('[data-testid=export]').selectOption('jsonl');
  const rows = (await (await jsonlDownload).path().then((p) => readFileSync(p, 'utf8')))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(rows.length, want);
  assert.deepEqual(rows[0].inputs, calls[byId.get(rows[0].id)!]!.inputs);
  await context.close();
});

test('where the browser can write files (File System Access), the export streams into the file chunk by chunk', async () => {
  const { page, context } = await openPage(browser, w.url);
  // A stand-in for the save picker that records what the app writes. A string, not a function:
  // tsx would wrap the function's inner functions in a helper the page does not have.
  await context.addInitScript(`
    window.__export = { chunks: [], closed: false, name: '' };
    window.showSaveFilePicker = async (opts) => {
      window.__export.name = opts.suggestedName;
      return { createWritable: async () => ({ write: async (d) => { window.__export.chunks.push(d); }, close: async () => { window.__export.closed = true; } }) };
    };
  `);
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.goto(BASE());
  await firstIds(page, 1);
  const want = (await w.t.post('/calls/query_stats', { project_id: PROJECT, filter: { trace_roots_only: true } })).body
    .count;
  await page.locator('[data-testid=export]').selectOption('jsonl');
  await page
    .waitForFunction(() => (window as unknown as { __export: { closed: boolean } }).__export.closed, undefined, {
      timeout: 20_000,
    })
    .catch(async (e) => {
      console.log(
        '# export state',
        await page.evaluate(() =>
          JSON.stringify({
            ...(window as any).__export,
            chunks: (window as any).__export.chunks.length,
            own: typeof (window as any).showSaveFilePicker,
          }),
        ),
        await page.locator('[data-testid=export-progress], [data-testid=error-banner]').allInnerTexts(),
      );
      throw e;
    });
  const rec = await page.evaluate(
    () => (window as unknown as { __export: { chunks: string[]; name: string } }).__export,
  );
  assert.equal(rec.name, 'ui-team-table-calls.jsonl');
  assert.ok(rec.chunks.length > 1, `${rec.chunks.length} writes`);
  assert.equal(rec.chunks.join('').trimEnd().split('\n').length, want);
  assert.equal(downloads, 0);
  await context.close();
});

test('columns hide, pin and resize; the layout is remembered per project', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(BASE());
  await firstIds(page, 1);
  const head = (col: string) => page.locator(`[role=columnheader][data-col="${col}"]`);
  await page.locator('[data-testid=columns-button]').click();
  const item = (col: string) => page.locator(`[data-testid=layout-item][data-col="${col}"]`);
  // Hide the name column, pin the call id.
  await item('name').locator('[data-testid=column-shown]').uncheck();
  await head('name').waitFor({ state: 'detached' });
  await item('id').locator('[data-testid=column-pin]').click();
  await page.locator('[data-testid=columns-button]').click();
  const order = () => page.$$eval('[role=columnheader]', (els) => els.map((e) => e.getAttribute('data-col')));
  assert.deepEqual((await order()).slice(0, 2), ['id', 'status']);
  // Resize the op column by dragging its edge.
  const before = Number(await head('op').getAttribute('data-width'));
  const edge = (await head('op').locator('[data-testid=resizer]').boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + 80, edge.y + edge.height / 2, { steps: 5 });
  await page.mouse.up();
  const after = Number(await head('op').getAttribute('data-width'));
  assert.ok(after >= before + 70, `${before} -> ${after}`);
  // Scrolled sideways, the pinned id stays at the left edge, after the tick column.
  const table = page.locator('[data-testid=calls-table]');
  const idX = async () => (await page.locator('[data-testid=call-row][data-index="0"] [data-col=id]').boundingBox())!.x;
  const x0 = await idX();
  await table.evaluate((el) => {
    el.scrollLeft = 400;
  });
  await page.waitForFunction(() => document.querySelector('[data-testid=calls-table]')!.scrollLeft > 0);
  assert.equal(await idX(), x0);
  await shot(page, 'calls-columns-light');
  // Remembered over a reload, for this project only.
  await page.reload();
  await firstIds(page, 1);
  assert.deepEqual((await order()).slice(0, 2), ['id', 'status']);
  assert.equal(await head('name').count(), 0);
  assert.equal(Number(await head('op').getAttribute('data-width')), after);
  await page.goto(`${w.url}/ui/ui-team/elsewhere/calls`);
  await page.locator('[data-testid=first-trace]').waitFor();
  await page.goto(BASE());
  await firstIds(page, 1);
  // Shown again and unpinned: the default layout.
  await page.locator('[data-testid=columns-button]').click();
  await item('name').locator('[data-testid=column-shown]').check();
  await item('id').locator('[data-testid=column-pin]').click();
  await head('name').waitFor();
  assert.equal((await order())[0], 'status');
  assert.deepEqual(errors, []);
  await context.close();
});

test('floats read at a readable precision in cells and in the detail, the exact value on hover', async () => {
  const project = 'ui-team/floats';
  const id = newId();
  await upsert(w.url, project, [
    {
      id,
      trace_id: newId(),
      op: op(project, 'judge'),
      started: T0,
      ended: T0 + 10,
      inputs: { score: 0.43554000000000004, big: 123456.789123, n: 3, tiny: 0.1 },
      output: 0.30000000000000004,
    },
  ]);
  const { page, context, errors } = await openPage(browser, w.url);
  const cols = encodeURIComponent(JSON.stringify(['inputs.score', 'inputs.big', 'inputs.n']));
  await page.goto(`${w.url}/ui/${project}/calls?cols=${cols}`);
  const cell = (path: string) => page.locator(`[data-testid=call-row][data-id="${id}"] [data-col="path:${path}"]`);
  await cell('inputs.score').waitFor();
  assert.equal(await cell('inputs.score').innerText(), '0.43554');
  assert.equal(await cell('inputs.big').innerText(), '123456.79');
  assert.equal(await cell('inputs.n').innerText(), '3');
  await page.goto(`${w.url}/ui/${project}/calls/${id}`);
  const inputs = page.locator('[data-testid=inputs]');
  await inputs.locator('[data-exact="0.43554000000000004"]').waitFor();
  assert.equal(await inputs.locator('[data-exact="0.43554000000000004"]').innerText(), '0.43554');
  assert.equal(await inputs.locator('[data-exact="0.43554000000000004"]').getAttribute('title'), '0.43554000000000004');
  assert.equal(await inputs.locator('[data-exact="0.1"]').getAttribute('title'), null, 'an exact value needs no title');
  assert.equal(await page.locator('[data-testid=output] [data-exact="0.30000000000000004"]').innerText(), '0.3');
  await shot(page, 'call-floats-light');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a custom time range: two instants typed in, kept in the URL; an empty end is no bound', async () => {
  const { page, context, errors } = await openPage(browser, w.url, { theme: 'dark' });
  await page.goto(BASE());
  await firstIds(page, 1);
  await page.locator('[data-testid=range-custom]').click();
  // datetime-local takes local time to the minute: minutes 10 to 20 of the calls, a call a second.
  const local = (ms: number) =>
    page.evaluate((t) => {
      const d = new Date(t);
      const parts = [d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes()].map((n) =>
        String(n).padStart(2, '0'),
      );
      return `${d.getFullYear()}-${parts[0]}-${parts[1]}T${parts[2]}:${parts[3]}`;
    }, ms);
  await page.locator('[data-testid=range-from]').fill(await local(T0 + 10 * 60_000));
  await page.locator('[data-testid=range-to]').fill(await local(T0 + 20 * 60_000));
  await page.waitForURL((u) => u.searchParams.get('to') === new Date(T0 + 20 * 60_000).toISOString());
  assert.equal(new URL(page.url()).searchParams.get('from'), new Date(T0 + 10 * 60_000).toISOString());
  await page.locator('[data-testid=calls-total]', { hasText: /^600 traces$/ }).waitFor();
  const first = await firstIds(page, 1);
  assert.deepEqual(first, [calls[1199]!.id], 'newest first: the last call before the end');
  await shot(page, 'calls-custom-range-dark');
  // Emptying the start leaves the range open before the end.
  await page.locator('[data-testid=range-from]').fill('');
  await page.waitForURL((u) => !u.searchParams.has('from') && u.searchParams.has('to'));
  await page.locator('[data-testid=calls-total]', { hasText: /^1,200 traces$/ }).waitFor();
  await page.reload();
  await page.locator('[data-testid=calls-total]', { hasText: /^1,200 traces$/ }).waitFor();
  assert.match(await page.locator('[data-testid=range-chip]').innerText(), /^the first call → /);
  assert.deepEqual(errors, []);
  await context.close();
});
