// Point read: POST /call/read p50 and p99 with BENCH_CALLS calls stored, for calls picked
// at random (seeded) from the whole database. Baseline: a bare Fastify route returning a
// fixed JSON body of the same size (a real /call/read answer of median length).
// Run alone: node --import tsx bench/point-read.ts
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import { postOk } from './lib/http.js';
import { compareLatency, medianBody, summarize, type LatencyRun } from './lib/latency.js';
import type { BenchResult } from './lib/report.js';
import { Rng } from './lib/rng.js';
import { startBare, startWeft } from './lib/server.js';
import { fmtInt, fmtMs, fmtRatio } from './lib/stats.js';

const PER_RUN = 1000;

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureDataset(opts);
  const ids = new Rng(`${opts.seed}:point-read`).shuffle([...manifest.sampleCallIds]);
  const bodies = ids.map((id) => JSON.stringify({ project_id: manifest.project, id }));
  const weft = await startWeft(opts, dir);
  try {
    // The baseline's fixed answer: a real answer of median size.
    const answers: string[] = [];
    for (const b of bodies.slice(0, 101)) {
      const r = await postOk(weft.url, '/call/read', b);
      if (r.body === '{"call":null}') throw new Error(`seeded call not found: ${b}`);
      answers.push(r.body);
    }
    const fixed = medianBody(answers);
    const missingAnswer = (await postOk(weft.url, '/call/read', { project_id: manifest.project, id: 'no-such-call' }))
      .body;
    const base = await startBare({ '/call/read': fixed, '/call/read-missing': missingAnswer });
    try {
      const runs: LatencyRun[] = [];
      for (let i = 0; i < opts.runs; i++) {
        // Each run reads different calls (offset), so later runs do not just hit the page cache of earlier ones.
        runs.push(
          await compareLatency(
            { url: weft.url, path: '/call/read', bodies },
            { url: base.url, path: '/call/read', bodies },
            PER_RUN,
            50,
            i === 0 ? 200 : 0,
            200 + i * PER_RUN,
          ),
        );
      }
      // Diagnostic: a read that finds nothing costs everything but fetching and rendering the row.
      const missing: LatencyRun[] = [];
      const missingBodies = [JSON.stringify({ project_id: manifest.project, id: 'no-such-call' })];
      for (let i = 0; i < opts.runs; i++) {
        missing.push(
          await compareLatency(
            { url: weft.url, path: '/call/read', bodies: missingBodies },
            { url: base.url, path: '/call/read-missing', bodies: missingBodies },
            PER_RUN / 4,
            50,
            i === 0 ? 50 : 0,
          ),
        );
      }
      const sm = summarize(missing);
      const s = summarize(runs);
      const size = `${fmtInt(fixed.length)} B`;
      return {
        name: 'point-read',
        rows: [
          {
            figure: `Point read /call/read p50 (${fmtInt(manifest.calls)} calls)`,
            weft: fmtMs(s.weftP50),
            baseline: `${fmtMs(s.baseP50)} (bare, ${size})`,
            ratio: fmtRatio(s.ratioP50),
            target: '<= 1.5x',
            met: s.ratioP50 <= 1.5,
          },
          {
            figure: `Point read /call/read p99 (${fmtInt(manifest.calls)} calls)`,
            weft: fmtMs(s.weftP99),
            baseline: `${fmtMs(s.baseP99)} (bare, ${size})`,
            ratio: fmtRatio(s.ratioP99),
            target: '-',
            met: null,
          },
          {
            figure: 'Point read /call/read p50, id not found',
            weft: fmtMs(sm.weftP50),
            baseline: `${fmtMs(sm.baseP50)} (bare, ${missingAnswer.length} B)`,
            ratio: fmtRatio(sm.ratioP50),
            target: '(diagnostic)',
            met: null,
          },
        ],
        notes: [
          `${opts.runs} runs x ${PER_RUN} sequential reads of random calls (one in flight), alternating blocks of 50 with the baseline; answer sizes ${fmtInt(Math.min(...answers.map((a) => a.length)))}-${fmtInt(Math.max(...answers.map((a) => a.length)))} B.`,
        ],
      };
    } finally {
      await base.stop();
    }
  } finally {
    await weft.stop();
  }
}

if (isMain(import.meta.url)) await runAlone(run);
