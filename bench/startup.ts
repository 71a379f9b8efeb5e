// Startup: time from spawning the server to the first accepted and answered request
// (GET /health = 200) on the existing seeded database. Baseline: the same for a bare
// Fastify app (node + Fastify + listen, no database). A diagnostic row times Weft on an
// empty data dir too, which separates what the database costs from what code loading and
// app setup cost. Starts alternate; one unmeasured start of each comes first (disk cache).
// Run alone: node --import tsx bench/startup.ts
import { rmSync } from 'node:fs';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, dataPath, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import type { BenchResult } from './lib/report.js';
import { bareArgs, freePort, timeToFirstRequest, weftArgs } from './lib/server.js';
import { fmtInt, fmtMs, fmtRatio, median } from './lib/stats.js';

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureDataset(opts);
  const weft: number[] = [];
  const empty: number[] = [];
  const bare: number[] = [];
  const emptyDir = dataPath('tmp', 'startup-empty');
  for (let i = -1; i < opts.runs; i++) {
    let port = await freePort();
    const w = await timeToFirstRequest(weftArgs(opts, port, dir), port);
    rmSync(emptyDir, { recursive: true, force: true });
    port = await freePort();
    const e = await timeToFirstRequest(weftArgs(opts, port, emptyDir), port);
    port = await freePort();
    const b = await timeToFirstRequest(bareArgs(port), port);
    if (i >= 0) {
      weft.push(w);
      empty.push(e);
      bare.push(b);
    }
    process.stderr.write(
      `bench: startup run ${i + 1}/${opts.runs}: Weft ${fmtMs(w)}, Weft on an empty dir ${fmtMs(e)}, bare ${fmtMs(b)}\n`,
    );
  }
  rmSync(emptyDir, { recursive: true, force: true });
  const w = median(weft);
  return {
    name: 'startup',
    rows: [
      {
        figure: `Startup to first request (${fmtInt(manifest.calls)} calls, ${(manifest.dbBytes / 2 ** 30).toFixed(1)} GiB file)`,
        weft: fmtMs(w),
        baseline: `${fmtMs(median(bare))} (bare)`,
        ratio: fmtRatio(median(weft.map((x, i) => x / bare[i]!))),
        target: '< 1 s',
        met: w < 1000,
      },
      {
        figure: 'Startup to first request, empty data dir',
        weft: fmtMs(median(empty)),
        baseline: `${fmtMs(median(bare))} (bare)`,
        ratio: fmtRatio(median(empty.map((x, i) => x / bare[i]!))),
        target: '(diagnostic)',
        met: null,
      },
    ],
    notes: [
      `Server run as ${opts.server === 'dist' ? '`node dist/main.js` (tsc output)' : '`node --import tsx src/main.ts`'}; per run Weft: ${weft.map(fmtMs).join(', ')}; empty dir: ${empty.map(fmtMs).join(', ')}; bare: ${bare.map(fmtMs).join(', ')}.`,
    ],
  };
}

if (isMain(import.meta.url)) await runAlone(run);
