// The Agents views in Debian's Chromium against the agents dataset (bench/lib/agent-dataset.ts,
// SQLite), medians of BENCH_RUNS fresh browser contexts:
//   a 1,000-turn conversation (/ui/{e}/{p}/agents/conversations/{id}): navigation -> the first
//   `[data-testid=turn]` painted (target < 1 s);
//   search (/ui/{e}/{p}/agents/conversations): once the page shows its conversations, the query
//   typed into `[data-testid=conversation-search]` at once, then -> the first `[data-testid=search-hits] mark`
//   painted (target < 500 ms after typing stops; the page waits 150 ms for typing to stop).
// Baseline: the same requests straight to the API in the same run (the server's share).
// Run alone: node --import tsx bench/agents-ui.ts
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { launch, openPage } from '../test/ui/browser.js';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, REPO_DIR, type BenchOptions } from './lib/config.js';
import { ensureAgentDataset } from './lib/agent-dataset.js';
import { longConversationId, PHRASE, RARE_WORDS } from './lib/gen-agents.js';
import { postOk } from './lib/http.js';
import type { BenchResult } from './lib/report.js';
import { startWeft } from './lib/server.js';
import { fmtMs, fmtRatio, median } from './lib/stats.js';

const QUERIES = [RARE_WORDS[0], `"${PHRASE}"`, 'invoice'];

/** When `selector` first matches, in ms of the page's clock, read on each animation frame. */
async function shownAt(page: Page, selector: string): Promise<number> {
  const h = await page.waitForFunction((sel) => (document.querySelector(sel) ? performance.now() : false), selector, {
    polling: 'raf',
    timeout: 120_000,
  });
  return (await h.jsonValue()) as number;
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureAgentDataset(opts);
  if (spawnSync(process.execPath, [join(REPO_DIR, 'scripts/build-ui.mjs')], { stdio: 'inherit' }).status !== 0)
    throw new Error('building the UI failed');
  const project = manifest.project;
  const conversation = longConversationId(1000);
  const weft = await startWeft(opts, dir);
  const browser = await launch();
  const s = { turns: [] as number[], chatApi: [] as number[], search: [] as number[], searchApi: [] as number[] };
  const perQuery = new Map<string, number[]>();
  try {
    for (let i = -1; i < opts.runs; i++) {
      const a = await openPage(browser, weft.url);
      await a.page.goto(`${weft.url}/ui/${project}/agents/conversations/${conversation}`);
      const turn = await shownAt(a.page, '[data-testid=turn]');
      await a.context.close();
      const api = (
        await postOk(weft.url, '/agents/conversations/chat', {
          project_id: project,
          conversation_id: conversation,
          limit: 50,
        })
      ).ms;
      const searches: number[] = [];
      const apis: number[] = [];
      for (const q of QUERIES) {
        const b = await openPage(browser, weft.url);
        await b.page.goto(`${weft.url}/ui/${project}/agents/conversations`);
        const box = b.page.locator('[data-testid=conversation-search]');
        // Typed once the page has shown its conversations, as a person would: typing while the
        // list still loads measured that load (the list's request and rendering) as well.
        await b.page.locator('[data-testid=conversations] tr[data-id]').first().waitFor();
        await box.fill(q);
        const typed = (await b.page.evaluate(() => performance.now())) as number;
        const ms = (await shownAt(b.page, '[data-testid=search-hits] mark')) - typed;
        await b.context.close();
        searches.push(ms);
        apis.push((await postOk(weft.url, '/agents/search', { project_id: project, query: q, limit: 50 })).ms);
        if (i >= 0) perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
      }
      if (i < 0) continue; // the first round warms the caches and the browser
      s.turns.push(turn);
      s.chatApi.push(api);
      s.search.push(median(searches));
      s.searchApi.push(median(apis));
      process.stderr.write(
        `bench: agents-ui run ${i + 1}/${opts.runs}: first turn ${fmtMs(turn)}, search ${searches.map(fmtMs).join(' / ')}\n`,
      );
    }
  } finally {
    await browser.close();
    await weft.stop();
  }
  return {
    name: 'agents-ui',
    rows: [
      {
        figure: `Chromium: ${manifest.long[conversation]}-turn conversation, navigation -> first turn shown`,
        weft: fmtMs(median(s.turns)),
        baseline: `${fmtMs(median(s.chatApi))} (/agents/conversations/chat, limit 50)`,
        ratio: fmtRatio(median(s.turns.map((x, i) => x / s.chatApi[i]!))),
        target: '< 1000 ms',
        met: median(s.turns) < 1000,
      },
      {
        figure: `Chromium: search, typing stopped -> first hit marked (median of ${QUERIES.join(', ')})`,
        weft: fmtMs(median(s.search)),
        baseline: `${fmtMs(median(s.searchApi))} (/agents/search)`,
        ratio: fmtRatio(median(s.search.map((x, i) => x / s.searchApi[i]!))),
        target: '< 500 ms',
        met: median(s.search) < 500,
      },
    ],
    notes: [
      `Search per query (ms, per run): ${[...perQuery].map(([q, v]) => `${q} ${v.map((x) => x.toFixed(0)).join('/')}`).join('; ')}. The page waits 150 ms after the last keystroke before it asks.`,
    ],
  };
}

if (isMain(import.meta.url)) await runAlone(run);
