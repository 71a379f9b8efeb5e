// Evaluations from the real weave SDK: two runs of one Evaluation over 100 examples with
// known answers. The list shows both; the comparison's scorecard equals the runs' own
// summaries; the regressions filter finds exactly the examples the fixture predicts; swapping
// the baseline flips the changes and is kept in the URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRanCleanly, eventually, runSdk, startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { jsonl } from '../helpers/calls.js';
import { launch, openPage, shot } from './browser.js';

const PROJECT = 'ui-team/evals';
let w: WeftServer;
let browser: Browser;
/** evaluate call ids by model name */
const runs = new Map<string, string>();
before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  // modelA is right for i < 70 (70%), modelB for i < 40 or i >= 90 (50%): B regresses on
  // 40..69 (30 examples) and improves on 90..99 (10).
  const run = await runSdk(
    w.url,
    PROJECT,
    `
  const rows = Array.from({ length: 100 }, (_, i) => ({ i, expected: i % 2 === 0 ? 'even' : 'odd' }));
  const dataset = new weave.Dataset({ name: 'parity', rows });
  const wrong = (r) => (r.expected === 'even' ? 'odd' : 'even');
  const modelA = weave.op(async function modelA({ datasetRow }) { return datasetRow.i < 70 ? datasetRow.expected : wrong(datasetRow); });
  const modelB = weave.op(async function modelB({ datasetRow }) { return datasetRow.i < 40 || datasetRow.i >= 90 ? datasetRow.expected : wrong(datasetRow); });
  const correct = weave.op(function correct({ modelOutput, datasetRow }) { return modelOutput === datasetRow.expected; });
  const evaluation = new weave.Evaluation({ name: 'parity-eval', dataset, scorers: [correct] });
  out.a = await evaluation.evaluate({ model: modelA, maxConcurrency: 10 });
  out.b = await evaluation.evaluate({ model: modelB, maxConcurrency: 10 });
  `,
    { timeoutMs: 180_000 },
  );
  assertRanCleanly(run);
  assert.equal(run.result.a.correct.true_count, 70);
  assert.equal(run.result.b.correct.true_count, 50);
  const evals = await eventually(
    async () => {
      const calls = jsonl(
        (
          await w.t.post('/calls/stream_query', {
            project_id: PROJECT,
            query: {
              $expr: { $contains: { input: { $getField: 'op_name' }, substr: { $literal: 'Evaluation.evaluate' } } },
            },
          })
        ).text,
      );
      return calls.length === 2 && calls.every((c) => c.ended_at) ? calls : null;
    },
    'two finished evaluate calls',
    60_000,
  );
  for (const c of evals) runs.set(/modelA/.test(JSON.stringify(c.inputs.model)) ? 'modelA' : 'modelB', c.id);
  assert.equal(runs.size, 2);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const cell = (page: Page, metric: string, run: string, part: 'value' | 'delta') =>
  page.locator(`[data-testid=scorecard] tr[data-metric="${metric}"] td[data-run="${run}"] [data-${part}]`);

test("the list shows both runs; comparing them shows each run's summary and the regressions the fixture predicts", async () => {
  const a = runs.get('modelA')!;
  const b = runs.get('modelB')!;
  const { page, context, external, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/evals/evaluations`);
  await page.locator('[data-testid=evaluations] tr[data-id]').nth(1).waitFor();
  assert.match(
    await page.locator(`[data-testid=evaluations] tr[data-id="${a}"]`).innerText(),
    /parity-eval[\s\S]*modelA[\s\S]*correct\.true_count 70/,
  );
  await page.locator(`[data-testid=evaluations] tr[data-id="${a}"] input[type=checkbox]`).check();
  await page.locator(`[data-testid=evaluations] tr[data-id="${b}"] input[type=checkbox]`).check();
  await shot(page, 'evaluations-light');
  await page.locator('[data-testid=compare]').click();
  await page.waitForURL(/evaluations\/compare\?ids=/);
  await cell(page, 'correct.true_count', a, 'value').waitFor();
  assert.equal(await cell(page, 'correct.true_count', a, 'value').innerText(), '70');
  assert.equal(await cell(page, 'correct.true_count', b, 'value').innerText(), '50');
  assert.equal(await cell(page, 'correct.true_fraction', a, 'value').innerText(), '0.700');
  assert.equal(await cell(page, 'correct.true_fraction', b, 'value').innerText(), '0.500');
  assert.equal((await cell(page, 'correct.true_count', b, 'delta').innerText()).trim(), '-20');

  await page.waitForFunction(
    () => document.querySelector('[data-testid=examples-count]')?.textContent === '100 of 100 examples',
  );
  await page.locator('[data-testid=example-filter]').selectOption('regressions');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=examples-count]')?.textContent === '30 of 100 examples',
  );
  await page.locator('[data-testid=example-filter]').selectOption('improvements');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=examples-count]')?.textContent === '10 of 100 examples',
  );
  // The examples show the dataset rows their refs name, by column: inputs first, the expected answer after.
  assert.deepEqual(await page.locator('[data-testid=example-column]').allInnerTexts(), ['i', 'expected']);
  const first = page.locator('[data-testid=example-row]').first();
  const i = Number(await first.locator('[data-col=i]').innerText());
  assert.ok(i >= 90 && i < 100, `an improvement is one of 90..99, not ${i}`);
  const parity = i % 2 === 0 ? 'even' : 'odd';
  const other = parity === 'even' ? 'odd' : 'even';
  assert.equal(await first.locator('[data-col=expected]').innerText(), parity);
  // Each model's output beside its scores: A (baseline) is wrong from 70 on, B right from 90.
  assert.equal(await first.locator('[data-output="0"]').innerText(), other);
  assert.equal(await first.locator('[data-output="1"]').innerText(), parity);
  await shot(page, 'evaluations-compare-light');
  const dark = await openPage(browser, w.url, { theme: 'dark' });
  await dark.page.goto(page.url());
  await dark.page.locator('[data-testid=example-row]').first().waitFor();
  await shot(dark.page, 'evaluations-compare-dark');
  await dark.context.close();

  // Swapping the baseline flips the changes; all of it is in the URL.
  await page.locator('[data-testid=example-filter]').selectOption('regressions');
  await page.locator('[data-testid=baseline]').selectOption(b);
  await page.waitForURL((u) => u.searchParams.get('baseline') === b && u.searchParams.get('filter') === 'regressions');
  assert.equal((await cell(page, 'correct.true_count', a, 'delta').innerText()).trim(), '+20');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=examples-count]')?.textContent === '10 of 100 examples',
  );
  const url = page.url();
  const fresh = await openPage(browser, w.url);
  await fresh.page.goto(url);
  await fresh.page.waitForFunction(
    () => document.querySelector('[data-testid=examples-count]')?.textContent === '10 of 100 examples',
  );
  assert.equal((await cell(fresh.page, 'correct.true_count', a, 'delta').innerText()).trim(), '+20');
  await fresh.context.close();
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a chart per metric; a metric's direction flips (in the URL); an example opens in a panel", async () => {
  const a = runs.get('modelA')!;
  const b = runs.get('modelB')!;
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/evals/evaluations/compare?ids=${encodeURIComponent(JSON.stringify([a, b]))}`);
  const chart = page.locator('[data-testid=metric-chart][data-metric="correct.true_fraction"]');
  await chart.waitFor();
  assert.equal(await chart.locator(`[data-run="${a}"]`).getAttribute('data-value'), '0.7');
  assert.equal(await chart.locator(`[data-run="${b}"]`).getAttribute('data-value'), '0.5');
  // Higher is better by default: B's -20 is worse; flipped, it is better, and the URL says so.
  const direction = page.locator(
    '[data-testid=scorecard] tr[data-metric="correct.true_count"] [data-testid=metric-direction]',
  );
  assert.equal(await direction.getAttribute('data-direction'), 'higher');
  assert.equal(await cell(page, 'correct.true_count', b, 'delta').getAttribute('data-better'), 'false');
  await direction.click();
  await page.waitForURL((u) => u.searchParams.get('lower')?.includes('correct.true_count') ?? false);
  assert.equal(await direction.getAttribute('data-direction'), 'lower');
  assert.equal(await cell(page, 'correct.true_count', b, 'delta').getAttribute('data-better'), 'true');
  await page.reload();
  await cell(page, 'correct.true_count', b, 'delta').waitFor();
  assert.equal(await cell(page, 'correct.true_count', b, 'delta').getAttribute('data-better'), 'true');
  await direction.click();
  await page.waitForURL((u) => !u.searchParams.has('lower'));

  // A row opens its example beside the table: the row whole, each run's output and scores.
  await page.locator('[data-testid=example-filter]').selectOption('regressions');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=examples-count]')?.textContent === '30 of 100 examples',
  );
  const row = page.locator('[data-testid=example-row]').first();
  const i = Number(await row.locator('[data-col=i]').innerText());
  assert.ok(i >= 40 && i < 70, `a regression is one of 40..69, not ${i}`);
  await row.click();
  await page.waitForURL((u) => u.searchParams.has('example'));
  const panel = page.locator('[data-testid=example-panel]');
  await panel.waitFor();
  assert.match(await panel.innerText(), new RegExp(`i\\W+${i}\\b`));
  const runsShown = panel.locator('[data-testid=example-run]');
  assert.equal(await runsShown.count(), 2);
  assert.match(await runsShown.nth(0).locator('[data-testid=example-scores]').innerText(), /correct ✓/);
  assert.match(await runsShown.nth(1).locator('[data-testid=example-scores]').innerText(), /correct ✗/);
  await shot(page, 'evaluations-example-light');
  await page.reload();
  await panel.waitFor();
  await page.locator('[data-testid=example-close]').click();
  await page.waitForURL((u) => !u.searchParams.has('example'));
  assert.deepEqual(errors, []);
  await context.close();
});

test("an evaluation's refs link to what they name and expand in place", async () => {
  const a = runs.get('modelA')!;
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(`${w.url}/ui/ui-team/evals/calls/${a}`);
  const self = page.locator('[data-testid=inputs] [data-testid=ref]').filter({ hasText: 'object parity-eval:' });
  await self.waitFor();
  await self.getByRole('button', { name: 'Show the value' }).click();
  await self.locator('[data-testid=ref-value]').filter({ hasText: 'scorers' }).waitFor();
  await self.getByRole('link').first().click();
  await page.waitForURL(/\/objects\/parity-eval\/versions\//);
  assert.deepEqual(errors, []);
  await context.close();
});
