// The monitor view against a Weft seeded by the real weave SDK (calls of now) and over HTTP
// (six known hours of traces two days earlier, with usage, prices and errors): the numbers
// shown are the fixture's, the calls view's filter params change them, a reload keeps the
// view, dragging across a chart zooms, and nothing leaves the host.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertRanCleanly, eventually, runSdk, startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { jsonl, newId } from '../helpers/calls.js';
import { launch, mark, openPage, shot } from './browser.js';
import { op, upsert, type SeedCall } from './seed.js';

const PROJECT = 'mon-team/agent';
const T0 = Date.UTC(2026, 10, 20, 12);
const HOURS = 6;
const N = HOURS * 60;
const PRICE = { prompt: 0.000001, completion: 0.000002 };
let w: WeftServer;
let browser: Browser;

/** One trace a minute for six hours: a root (every 9th fails) with usage, and a tool call under it. */
const roots: SeedCall[] = [];
const seeded: SeedCall[] = [];
for (let i = 0; i < N; i++) {
  const started = T0 + i * 60_000 + (i % 7) * 1000;
  const root: SeedCall = {
    id: newId(),
    trace_id: newId(),
    op: op(PROJECT, i % 2 === 0 ? 'predict' : 'score'),
    started,
    ended: started + 50 + ((i * 37) % 900),
    inputs: { i },
    output: 'ok',
    ...(i % 9 === 0 ? { exception: `failed ${i}` } : {}),
    summary: {
      usage: { 'gpt-4o-mini': { requests: 1, prompt_tokens: 100 + i, completion_tokens: 20, total_tokens: 120 + i } },
    },
  };
  roots.push(root);
  seeded.push(root, {
    id: newId(),
    trace_id: root.trace_id,
    parent_id: root.id,
    op: op(PROJECT, 'tool'),
    started: started + 1,
    ended: started + 6,
  });
}
const fixture = (pick: (c: SeedCall, i: number) => boolean) => {
  const chosen = roots.filter(pick);
  const usage = (c: SeedCall) =>
    (c.summary as { usage: Record<string, { prompt_tokens: number; completion_tokens: number }> }).usage[
      'gpt-4o-mini'
    ]!;
  return {
    calls: chosen.length,
    errors: chosen.filter((c) => c.exception).length,
    tokens: chosen.reduce((n, c) => n + usage(c).prompt_tokens + usage(c).completion_tokens, 0),
    cost: chosen.reduce(
      (n, c) => n + usage(c).prompt_tokens * PRICE.prompt + usage(c).completion_tokens * PRICE.completion,
      0,
    ),
  };
};

before(async () => {
  [w, browser] = await Promise.all([startWeftServer(), launch()]);
  const run = await runSdk(
    w.url,
    PROJECT,
    `
  const lookup = weave.op(async function lookup(city) { throw new Error('no weather for ' + city); });
  const answer = weave.op(async function answer(question) {
    try { await lookup('Atlantis'); } catch (e) {}
    return 'sunny';
  });
  out.first = await answer('Weather in Paris?');
  out.second = await answer('And tomorrow?');
  `,
  );
  assertRanCleanly(run);
  await eventually(async () => {
    const calls = jsonl((await w.t.post('/calls/stream_query', { project_id: PROJECT })).text);
    return calls.length === 4 && calls.every((c) => c.ended_at) ? calls : null;
  }, 'four ended SDK calls');
  await upsert(w.url, PROJECT, seeded);
  const price = await w.t.post('/cost/create', {
    project_id: PROJECT,
    costs: {
      'gpt-4o-mini': {
        prompt_token_cost: PRICE.prompt,
        completion_token_cost: PRICE.completion,
        effective_date: '2026-01-01T00:00:00Z',
      },
    },
  });
  assert.equal(price.status, 200, price.text);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const WINDOW = `from=${new Date(T0).toISOString()}&to=${new Date(T0 + HOURS * 3_600_000).toISOString()}`;
const url = (query = '') => `${w.url}/ui/mon-team/agent/monitor${query ? `?${query}` : ''}`;

interface Shown {
  calls: number;
  errors: number;
  tokens: number;
  cost: number;
  buckets: number;
  bucketCalls: number;
}
/** The totals as shown (data-value) once the charts are drawn, and the data table's buckets. */
async function shown(page: Page): Promise<Shown> {
  const drawn = page.locator('[data-testid=monitor-content]:not([class*=stale]) [data-testid=chart-cost] canvas');
  await drawn.or(page.locator('[data-testid=error-banner]')).first().waitFor();
  if (!(await drawn.count())) throw new Error(`no charts: ${await page.locator('[data-testid=monitor]').innerText()}`);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=monitor]')?.getAttribute('aria-busy') === 'false',
  );
  const value = async (id: string) =>
    Number(await page.locator(`[data-testid=total-${id}]`).getAttribute('data-value'));
  const rows = page.locator('[data-testid=monitor-data] tbody tr');
  const bucketCalls = (await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-calls'))))).reduce(
    (a, b) => a + b,
    0,
  );
  return {
    calls: await value('calls'),
    errors: await value('errors'),
    tokens: await value('tokens'),
    cost: await value('cost'),
    buckets: await rows.count(),
    bucketCalls,
  };
}

function assertFixture(actual: Shown, expected: ReturnType<typeof fixture>) {
  assert.deepEqual(
    [actual.calls, actual.errors, actual.tokens, actual.bucketCalls],
    [expected.calls, expected.errors, expected.tokens, expected.calls],
  );
  assert.ok(Math.abs(actual.cost - expected.cost) < 1e-9, `cost ${actual.cost} != ${expected.cost}`);
}

test('a known window shows the fixture totals, five charts and the table; light and dark', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const { page, context, external, errors } = await openPage(browser, w.url, { theme });
    await page.goto(url(WINDOW));
    const s = await shown(page);
    assertFixture(
      s,
      fixture(() => true),
    );
    assert.equal(s.buckets, 72, 'six hours in 5-minute buckets');
    assert.equal(await page.locator('[data-testid=monitor-window]').getAttribute('data-bucket'), '300');
    assert.equal(await page.locator('[data-testid=total-calls]').innerText(), 'Traces\n360');
    assert.match(await page.locator('[data-testid=total-errors]').innerText(), /^Errors\n40\n11% of traces$/);
    assert.match(await page.locator('[data-testid=total-tokens]').innerText(), /107,820/);
    assert.match(await page.locator('[data-testid=total-cost]').innerText(), /\$0\.12/);
    for (const chart of ['calls', 'error-rate', 'latency', 'tokens', 'cost'])
      assert.equal(await page.locator(`[data-testid=chart-${chart}] canvas`).count(), 1, chart);
    assert.ok((await mark(page, 'weft:view-ready')) !== null);
    await shot(page, `monitor-${theme}`);
    await page.locator('[data-testid=chart-cost]').scrollIntoViewIfNeeded();
    await shot(page, `monitor-${theme}-lower`);
    // The theme toggle redraws the charts in the other theme's colours.
    await page.evaluate(() =>
      document.querySelectorAll('[data-testid^=chart-] canvas').forEach((c) => {
        c.setAttribute('data-old', '');
      }),
    );
    await page.locator('[data-testid=theme-toggle]').click();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid^=chart-] canvas:not([data-old])').length === 5,
    );
    assert.deepEqual(external, []);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("the calls view's filter params change the numbers; a reload keeps the view; the link opens those calls", async () => {
  const { page, context, external, errors } = await openPage(browser, w.url);
  await page.goto(url(`${WINDOW}&errors=1`));
  assertFixture(
    await shown(page),
    fixture((c) => Boolean(c.exception)),
  );
  await page.goto(url(`${WINDOW}&op=predict`));
  assertFixture(
    await shown(page),
    fixture((_c, i) => i % 2 === 0),
  );
  await page.reload();
  assertFixture(
    await shown(page),
    fixture((_c, i) => i % 2 === 0),
  );
  assert.equal(new URL(page.url()).searchParams.get('op'), 'predict');
  // Every call, not only trace roots: the tool calls double the count, none has an error.
  await page.goto(url(`${WINDOW}&roots=0`));
  const all = await shown(page);
  assert.deepEqual([all.calls, all.errors], [2 * N, fixture(() => true).errors]);
  // The same filter from the bar: errors only, all time; the link shows the same traces.
  await page.goto(url());
  await page.locator('[data-testid=errors-only]').check();
  await page.waitForURL(/errors=true/);
  const errorsAllTime = await shown(page);
  assert.equal(errorsAllTime.calls, fixture((c) => Boolean(c.exception)).calls);
  await page.locator('[data-testid=show-calls]').click();
  await page.waitForURL(/\/calls\?errors=true$/);
  await page.locator('[data-testid=calls-total]', { hasText: `${errorsAllTime.calls} traces` }).waitFor();
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a zoomed, errors-only window's link opens exactly its calls: the calls view keeps the window", async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  // The second and third hours, errors only.
  const from = new Date(T0 + 3_600_000).toISOString();
  const to = new Date(T0 + 3 * 3_600_000).toISOString();
  await page.goto(url(`from=${from}&to=${to}&errors=1`));
  const inWindow = (c: SeedCall) => c.started >= T0 + 3_600_000 && c.started < T0 + 3 * 3_600_000;
  const expected = fixture((c) => Boolean(c.exception) && inWindow(c));
  assertFixture(await shown(page), expected);
  assert.ok(expected.calls > 0 && expected.calls < fixture((c) => Boolean(c.exception)).calls);
  await page.locator('[data-testid=show-calls]').click();
  await page.waitForURL((u) => u.pathname.endsWith('/calls') && u.searchParams.get('from') === from);
  assert.equal(new URL(page.url()).searchParams.get('to'), to);
  await page.locator('[data-testid=calls-total]', { hasText: `${expected.calls} traces` }).waitFor();
  assert.equal(await page.locator('[data-testid=range-chip]').getAttribute('data-from'), from);
  // Clearing the range shows every failed trace again.
  await page.locator('[data-testid=range-clear]').click();
  await page.waitForURL((u) => !u.searchParams.has('from'));
  const allErrors = fixture((c) => Boolean(c.exception)).calls;
  await page.locator('[data-testid=calls-total]', { hasText: `${allErrors} traces` }).waitFor();
  // A quick range: the last 24 hours hold only the SDK's two traces of now.
  await page.goto(`${w.url}/ui/mon-team/agent/calls`);
  await page.locator('[data-testid=calls-total]', { hasText: `${N + 2} traces` }).waitFor();
  await page.locator('[data-testid=range-24h]').click();
  await page.waitForURL((u) => u.searchParams.has('from') && u.searchParams.has('to'));
  await page.locator('[data-testid=calls-total]', { hasText: /^2 traces$/ }).waitFor();
  await shot(page, 'calls-time-range-light');
  assert.deepEqual(errors, []);
  await context.close();
});

test('all time includes the SDK calls; every call counts the SDK errors', async () => {
  const { page, context, errors } = await openPage(browser, w.url);
  await page.goto(url());
  const s = await shown(page);
  const stats = await w.t.post('/calls/query_stats', { project_id: PROJECT, filter: { trace_roots_only: true } });
  assert.equal(s.calls, stats.body.count);
  assert.equal(s.calls, N + 2);
  // Hovering one chart reads the same bucket in all of them.
  const box = (await page.locator('[data-testid=chart-latency] .u-over').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
  await shot(page, 'monitor-all-time-hover');
  await page.goto(url('roots=0'));
  const every = await shown(page);
  assert.deepEqual([every.calls, every.errors], [2 * N + 4, fixture(() => true).errors + 2]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('dragging across a chart zooms to that range (in the URL); Back and Reset zoom undo it', async () => {
  const { page, context, external, errors } = await openPage(browser, w.url);
  await page.goto(url(WINDOW));
  await shown(page);
  const over = page.locator('[data-testid=chart-calls] .u-over');
  const box = (await over.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.25, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, y, { steps: 8 });
  await page.mouse.up();
  await page.waitForURL((u) => u.searchParams.get('from') !== new Date(T0).toISOString());
  const params = new URL(page.url()).searchParams;
  const [from, to] = [Date.parse(params.get('from')!), Date.parse(params.get('to')!)];
  // A quarter of six hours, give or take a pixel.
  assert.ok(
    Math.abs(from - (T0 + 1.5 * 3_600_000)) < 120_000 && Math.abs(to - from - 1.5 * 3_600_000) < 120_000,
    `${params}`,
  );
  const zoomed = await shown(page);
  assertFixture(
    zoomed,
    fixture((c) => c.started >= from && c.started < to),
  );
  await page.reload();
  assert.equal((await shown(page)).calls, zoomed.calls);
  await page.goBack();
  await page.waitForURL((u) => u.searchParams.get('from') === new Date(T0).toISOString());
  assert.equal((await shown(page)).calls, N);
  await page.locator('[data-testid=reset-zoom]').click();
  await page.waitForURL((u) => !u.searchParams.has('from'));
  assert.equal((await shown(page)).calls, N + 2);
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bucket picked in the URL; an empty project; a refused filter shows the reason and a retry', async () => {
  const { page, context, external } = await openPage(browser, w.url);
  await page.goto(url(`${WINDOW}&bucket=3600`));
  const hourly = await shown(page);
  assert.equal(hourly.buckets, HOURS);
  assert.equal(await page.locator('[data-testid=bucket-select]').inputValue(), '3600');
  await page.goto(`${w.url}/ui/nobody/nothing/monitor`);
  await page.locator('[data-testid=monitor-empty]').waitFor();
  assert.match(await page.locator('[data-testid=monitor-empty]').innerText(), /No calls in this project yet/);
  await page.goto(url(`${WINDOW}&bucket=1`));
  await page.locator('[data-testid=error-banner]').waitFor();
  assert.match(await page.locator('[data-testid=error-banner]').innerText(), /at most 2000/);
  assert.equal(await page.locator('[data-testid=error-banner] button').innerText(), 'Retry');
  assert.deepEqual(external, []);
  await context.close();
});
