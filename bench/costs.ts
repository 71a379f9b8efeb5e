// include_costs: /calls/stream_query of 100 calls (newest first, default columns) with
// include_costs against the same query without it, on the seeded dataset (LLM calls and
// their ancestors carry summary.usage), sampled in alternating blocks on one server. The
// default prices come from the catalogue (@pydantic/genai-prices) on every call.
// Run alone: node --import tsx bench/costs.ts
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import { postOk } from './lib/http.js';
import { compareLatency, summarize, type LatencyRun } from './lib/latency.js';
import type { BenchResult } from './lib/report.js';
import { startWeft } from './lib/server.js';
import { fmtMs, fmtRatio } from './lib/stats.js';

const PER_RUN = 200;
const PAGES = 50;

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureDataset(opts);
  const weft = await startWeft(opts, dir);
  try {
    const body = (offset: number, include_costs: boolean) =>
      JSON.stringify({
        project_id: manifest.project,
        sort_by: [{ field: 'started_at', direction: 'desc' }],
        limit: 100,
        offset,
        include_costs,
      });
    const plain = Array.from({ length: PAGES }, (_, i) => body(i * 100, false));
    const priced = Array.from({ length: PAGES }, (_, i) => body(i * 100, true));
    // What the measured pages hold: how many calls are priced.
    let pricedCalls = 0;
    for (const b of priced.slice(0, 5))
      pricedCalls += (await postOk(weft.url, '/calls/stream_query', b)).body
        .split('\n')
        .filter((l) => l.includes('"costs":')).length;
    const runs: LatencyRun[] = [];
    for (let i = 0; i < opts.runs; i++) {
      runs.push(
        await compareLatency(
          { url: weft.url, path: '/calls/stream_query', bodies: priced },
          { url: weft.url, path: '/calls/stream_query', bodies: plain },
          PER_RUN,
          25,
          i === 0 ? 50 : 0,
        ),
      );
    }
    const s = summarize(runs);
    return {
      name: 'costs',
      rows: [
        {
          figure: '/calls/stream_query of 100 calls with include_costs, p50',
          weft: fmtMs(s.weftP50),
          baseline: `${fmtMs(s.baseP50)} (the same query without it)`,
          ratio: fmtRatio(s.ratioP50),
          target: '<= 1.2x',
          met: s.ratioP50 <= 1.2,
        },
      ],
      notes: [
        `${opts.runs} runs x ${PER_RUN} sequential queries each way over ${PAGES} pages of the newest calls, alternating blocks of 25; ${pricedCalls} of the first 500 calls carry costs.`,
      ],
    };
  } finally {
    await weft.stop();
  }
}

if (isMain(import.meta.url)) await runAlone(run);
