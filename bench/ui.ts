// The web UI in Debian's Chromium against the seeded BENCH_CALLS dataset, medians of
// BENCH_RUNS fresh browser contexts: the big trace (first rows, whole tree, rows in the DOM,
// long tasks, a deep link 40,000 rows down), the calls table (first rows, scrolling to row
// 10,000), the JavaScript of the first view; and the server side of the trace view
// (/ui/api/trace_tree) beside its baseline, the same rows read straight from SQLite.
// Run alone: node --import tsx bench/ui.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { SQLITE_FILE } from '../src/storage/sqlite/store.js';
import { callKeyOf, keyParams } from '../src/storage/sqlite/calls/call-keys.js';
import { launch, mark, openPage } from '../test/ui/browser.js';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, REPO_DIR, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import { postOk } from './lib/http.js';
import type { BenchResult } from './lib/report.js';
import { startWeft } from './lib/server.js';
import { fmtInt, fmtMs, fmtRatio, median } from './lib/stats.js';

interface Node {
  id: string;
  parent_id: string | null;
}

/** The tree's display order (depth first, children by start), as the UI lays it out. */
function displayOrder(nodes: readonly Node[]): string[] {
  const ids = new Set(nodes.map((n) => n.id));
  const kids = new Map<string, string[]>();
  for (const n of nodes)
    if (n.parent_id !== null && ids.has(n.parent_id)) kids.set(n.parent_id, [...(kids.get(n.parent_id) ?? []), n.id]);
  const out: string[] = [];
  const stack = nodes
    .filter((n) => n.parent_id === null || !ids.has(n.parent_id))
    .map((n) => n.id)
    .reverse();
  while (stack.length > 0) {
    const id = stack.pop()!;
    out.push(id);
    for (const k of [...(kids.get(id) ?? [])].reverse()) stack.push(k);
  }
  return out;
}

/**
 * When an element matching `selector` first exists, in ms from navigation, read in the page
 * on each animation frame (so the time of the frame that paints it, without the polling
 * intervals of locator.waitFor or a round trip to the page).
 */
async function shownAt(page: Page, selector: string): Promise<number> {
  const h = await page.waitForFunction((sel) => (document.querySelector(sel) ? performance.now() : false), selector, {
    polling: 'raf',
    timeout: 120_000,
  });
  return (await h.jsonValue()) as number;
}

/** gzip bytes of the scripts and styles index.html loads (the first view; lazy chunks excluded). */
function firstViewBytes(): number {
  const dir = join(REPO_DIR, 'dist/ui');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/ui\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  return files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f))).length, 0);
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureDataset(opts);
  if (spawnSync(process.execPath, [join(REPO_DIR, 'scripts/build-ui.mjs')], { stdio: 'inherit' }).status !== 0)
    throw new Error('building the UI failed');
  const project = manifest.project;
  const [entity, name] = project.split('/') as [string, string];
  const weft = await startWeft(opts, dir);
  const browser = await launch();
  try {
    const tree = await postOk(weft.url, '/ui/api/trace_tree', { project_id: project, trace_id: manifest.bigTraceId });
    const nodes = tree.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Node);
    const order = displayOrder(nodes);
    const root = order[0]!;
    const deep = Math.min(40_000, order.length - 1);
    const traceUrl = `${weft.url}/ui/${entity}/${name}/calls/${root}`;
    const s = {
      first: [] as number[],
      ready: [] as number[],
      dom: [] as number[],
      long: [] as number[],
      deep: [] as number[],
      tableFirst: [] as number[],
      count: [] as number[],
      scroll: [] as number[],
      server: [] as number[],
      base: [] as number[],
    };

    for (let i = 0; i < opts.runs; i++) {
      const a = await openPage(browser, weft.url);
      await a.page.goto(traceUrl);
      await a.page.waitForFunction(
        () => document.querySelector('[data-testid=trace-stats]')?.textContent?.includes('loading') === false,
        undefined,
        { timeout: 120_000 },
      );
      s.first.push((await mark(a.page, 'weft:first-row'))!);
      s.ready.push((await mark(a.page, 'weft:trace-ready'))!);
      let dom = 0;
      for (const at of [0, 0.25, 0.5, 0.75, 1]) {
        await a.page.locator('[data-testid=trace-tree]').evaluate((el, f) => {
          el.scrollTop = el.scrollHeight * f;
        }, at);
        await a.page.waitForTimeout(30);
        dom = Math.max(dom, await a.page.locator('[data-testid=tree-row]').count());
      }
      s.dom.push(dom);
      s.long.push(
        await a.page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks)),
      );
      await a.context.close();

      const b = await openPage(browser, weft.url);
      await b.page.goto(`${traceUrl}?call=${order[deep]}`);
      s.deep.push(await shownAt(b.page, `[data-testid=tree-row][data-id="${order[deep]}"][aria-selected=true]`));
      await b.context.close();

      const c = await openPage(browser, weft.url);
      await c.page.goto(`${weft.url}/ui/${entity}/${name}/calls?roots=0`);
      s.tableFirst.push(await shownAt(c.page, '[data-testid=call-row][data-index="0"][data-id]'));
      // Scrolling needs the total (the first rows show before it, with the first window's height).
      const counted = await c.page.waitForFunction(
        () =>
          !/Counting/.test(document.querySelector('[data-testid=calls-total]')?.textContent ?? 'Counting') &&
          performance.now(),
        undefined,
        { polling: 'raf', timeout: 120_000 },
      );
      s.count.push((await counted.jsonValue()) as number);
      const t0 = await c.page.locator('[data-testid=calls-table]').evaluate((el) => {
        const t = performance.now();
        el.scrollTop = 10_000 * 32;
        return t;
      });
      s.scroll.push((await shownAt(c.page, '[data-testid=call-row][data-index="10000"][data-id]')) - t0);
      await c.context.close();
    }

    const db = new Database(join(dir, SQLITE_FILE), { readonly: true });
    const read = db
      .prepare(
        `SELECT id, parent_id, op_name, display_name, started_at, ended_at, exception, summary FROM calls WHERE trace_key = ${callKeyOf('?')} AND +project_id = ? AND trace_id = ? AND deleted_at IS NULL ORDER BY started_at, id`,
      )
      .raw(true);
    for (let i = 0; i < opts.runs; i++) {
      let t = performance.now();
      await postOk(weft.url, '/ui/api/trace_tree', { project_id: project, trace_id: manifest.bigTraceId });
      s.server.push(performance.now() - t);
      t = performance.now();
      read.all(...keyParams(manifest.bigTraceId), project, manifest.bigTraceId);
      s.base.push(performance.now() - t);
    }
    db.close();

    const m = (xs: number[]) => median(xs);
    const calls = fmtInt(nodes.length);
    const js = firstViewBytes();
    return {
      name: 'ui',
      rows: [
        {
          figure: `UI: ${calls}-call trace, first tree rows (from navigation)`,
          weft: fmtMs(m(s.first)),
          baseline: '-',
          ratio: '-',
          target: '< 1000 ms',
          met: m(s.first) < 1000,
        },
        {
          figure: `UI: ${calls}-call trace, whole tree ready`,
          weft: fmtMs(m(s.ready)),
          baseline: '-',
          ratio: '-',
          target: '< 2000 ms',
          met: m(s.ready) < 2000,
        },
        {
          figure: 'UI: tree rows in the DOM (most at any scroll position)',
          weft: fmtInt(Math.max(...s.dom)),
          baseline: '-',
          ratio: '-',
          target: '< 300',
          met: Math.max(...s.dom) < 300,
        },
        {
          figure: 'UI: longest task after navigation (median of runs)',
          weft: fmtMs(m(s.long)),
          baseline: '-',
          ratio: '-',
          target: '< 200 ms',
          met: m(s.long) < 200,
        },
        {
          figure: `UI: deep link to the call ${fmtInt(deep)} rows down, selected`,
          weft: fmtMs(m(s.deep)),
          baseline: '-',
          ratio: '-',
          target: '< 1500 ms',
          met: m(s.deep) < 1500,
        },
        {
          figure: `UI: calls table over ${fmtInt(manifest.calls)} calls, first rows`,
          weft: fmtMs(m(s.tableFirst)),
          baseline: '-',
          ratio: '-',
          target: '< 500 ms',
          met: m(s.tableFirst) < 500,
        },
        {
          figure: 'UI: calls table, total shown (/calls/query_stats)',
          weft: fmtMs(m(s.count)),
          baseline: '-',
          ratio: '-',
          target: '-',
          met: null,
        },
        {
          figure: 'UI: calls table, scroll to row 10,000 until shown',
          weft: fmtMs(m(s.scroll)),
          baseline: '-',
          ratio: '-',
          target: '< 500 ms',
          met: m(s.scroll) < 500,
        },
        {
          figure: 'UI: JavaScript and CSS of the first view (gzip)',
          weft: `${(js / 1024).toFixed(0)} kB`,
          baseline: '-',
          ratio: '-',
          target: '< 300 kB',
          met: js < 300 * 1024,
        },
        {
          figure: `UI: /ui/api/trace_tree of the ${calls}-call trace (server)`,
          weft: fmtMs(m(s.server)),
          baseline: `${fmtMs(m(s.base))} (SQLite read of the rows)`,
          ratio: fmtRatio(m(s.server) / m(s.base)),
          target: '-',
          met: null,
        },
      ],
      notes: [
        `${opts.runs} runs, each in a fresh browser context (Debian Chromium, headless, 1280x800); times from navigation start unless noted; the whole tree of the trace expanded.`,
      ],
    };
  } finally {
    await browser.close();
    await weft.stop();
  }
}

if (isMain(import.meta.url)) await runAlone(run);
