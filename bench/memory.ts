// Memory: the server's RSS (VmRSS of the child process) while it streams every call of
// the seeded database (/calls/stream_query, no filter, no limit) to a slow reader that
// takes at most BENCH_SLOW_MBPS MB/s (so backpressure, not the server's pace, decides).
// Baseline: the same server's RSS when idle just before the stream. "Flat" means the RSS
// at the end of the stream is within 10% of the RSS a tenth of the way in. Alongside, a
// GET /health every 250 ms shows whether other requests are still served meanwhile.
// Run alone: node --import tsx bench/memory.ts
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import { post, postOk, postStream } from './lib/http.js';
import type { BenchResult } from './lib/report.js';
import { startWeft } from './lib/server.js';
import { fmtInt, fmtMB, fmtMs, fmtRatio, median, percentile } from './lib/stats.js';

const PEAK_TARGET = 300 * 1048576;
const SAMPLE_MS = 250;

interface Sample {
  readonly ms: number;
  readonly rss: number;
  readonly lines: number;
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureDataset(opts);
  const weft = await startWeft(opts, dir);
  try {
    // Idle, but warmed: one small query has loaded the code paths the stream uses.
    await postOk(weft.url, '/calls/stream_query', { project_id: manifest.project, limit: 10 });
    await new Promise((r) => setTimeout(r, 1000));
    const idle = weft.rss();

    const samples: Sample[] = [];
    const health: number[] = [];
    let lines = 0;
    const t0 = performance.now();
    let probing = false;
    const timer = setInterval(() => {
      samples.push({ ms: performance.now() - t0, rss: weft.rss(), lines });
      if (probing) return; // one probe at a time
      probing = true;
      void post(
        weft.url,
        '/calls/query_stats',
        JSON.stringify({ project_id: manifest.project, filter: { call_ids: ['x'] } }),
      )
        .then((r) => health.push(r.ms))
        .finally(() => (probing = false));
    }, SAMPLE_MS);
    let r;
    try {
      r = await postStream(weft.url, '/calls/stream_query', JSON.stringify({ project_id: manifest.project }), {
        bytesPerSec: opts.slowReaderMBps * 1e6,
        onProgress: (_b, l) => (lines = l),
      });
    } finally {
      clearInterval(timer);
    }
    samples.push({ ms: performance.now() - t0, rss: weft.rss(), lines: r.lines });
    if (r.status !== 200) throw new Error(`stream_query -> ${r.status}`);
    if (r.lines !== manifest.calls) throw new Error(`streamed ${r.lines} rows, expected ${manifest.calls}`);

    // Median RSS of the samples taken while the stream was between these fractions (else the nearest sample).
    const rssAt = (from: number, to: number) => {
      const inside = samples.filter((s) => s.lines >= from * r.lines && s.lines <= to * r.lines);
      if (inside.length > 0) return median(inside.map((s) => s.rss));
      const dist = (s: Sample) => Math.abs(s.lines - to * r.lines);
      return samples.reduce((best, s) => (dist(s) < dist(best) ? s : best)).rss;
    };
    const peak = Math.max(...samples.map((s) => s.rss));
    const early = rssAt(0.05, 0.15);
    const late = rssAt(0.9, 1);
    const growth = late / early - 1;
    const flat = growth < 0.1;
    const trace = [0.1, 0.25, 0.5, 0.75, 1]
      .map((q) => `${Math.round(q * 100)}%: ${fmtMB(rssAt(q - 0.05, q))}`)
      .join(', ');
    return {
      name: 'memory',
      rows: [
        {
          figure: `Memory: server RSS streaming all ${fmtInt(manifest.calls)} calls to a ${opts.slowReaderMBps} MB/s reader`,
          weft: `${fmtMB(peak)} peak, ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(0)}% 10%->end`,
          baseline: `${fmtMB(idle)} (idle)`,
          ratio: fmtRatio(peak / idle),
          target: '< 300 MB, flat (< +10%)',
          met: peak < PEAK_TARGET && flat,
        },
      ],
      notes: [
        `${fmtInt(r.lines)} rows, ${fmtMB(r.bytes)} in ${(r.totalMs / 1000).toFixed(1)} s (${(r.bytes / 1e6 / (r.totalMs / 1000)).toFixed(1)} MB/s, ${fmtInt(r.lines / (r.totalMs / 1000))} rows/s); first row after ${fmtMs(r.firstRowMs)}.`,
        `RSS over the stream (median in each window ending at): ${trace}.`,
        `A concurrent /calls/query_stats (one call id) every ${SAMPLE_MS} ms during the stream: p50 ${fmtMs(percentile(health, 50))}, p99 ${fmtMs(percentile(health, 99))}, max ${fmtMs(Math.max(...health))} (${health.length} requests).`,
      ],
    };
  } finally {
    await weft.stop();
  }
}

if (isMain(import.meta.url)) await runAlone(run);
