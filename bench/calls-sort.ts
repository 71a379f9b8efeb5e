// The calls table's sorts the service ranks (summary.weave.total_tokens, total_cost: one pass
// over the matching calls' summaries) against the engine's own sort by a computed SQL field
// over the same calls (summary.weave.latency_ms), first page of 100; and the column picker's
// paths (/ui/api/call_paths: every key of the calls) against counting the same calls. Trace
// roots (the table's default) and every call, on the seeded dataset.
// Run alone: node --import tsx bench/calls-sort.ts
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import { postOk } from './lib/http.js';
import type { BenchResult, Row } from './lib/report.js';
import { startWeft } from './lib/server.js';
import { fmtInt, fmtMs, fmtRatio, median } from './lib/stats.js';

async function timed(url: string, path: string, body: unknown): Promise<number> {
  const t = performance.now();
  await postOk(url, path, JSON.stringify(body));
  return performance.now() - t;
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureDataset(opts);
  const weft = await startWeft(opts, dir);
  try {
    const project = manifest.project;
    const rows: Row[] = [];
    for (const roots of [true, false]) {
      const filter = roots ? { trace_roots_only: true } : {};
      const count = JSON.parse(
        (await postOk(weft.url, '/calls/query_stats', JSON.stringify({ project_id: project, filter }))).body,
      ).count as number;
      const page = (field: string) => ({
        project_id: project,
        filter,
        sort_by: [{ field, direction: 'desc' }],
        limit: 100,
        include_costs: true,
      });
      const what = roots ? `${fmtInt(count)} trace roots` : `all ${fmtInt(count)} calls`;
      for (const field of ['summary.weave.total_cost', 'summary.weave.total_tokens']) {
        const weftMs: number[] = [];
        const baseMs: number[] = [];
        await timed(weft.url, '/calls/stream_query', page(field));
        for (let i = 0; i < opts.runs; i++) {
          weftMs.push(await timed(weft.url, '/calls/stream_query', page(field)));
          baseMs.push(await timed(weft.url, '/calls/stream_query', page('summary.weave.latency_ms')));
        }
        const w = median(weftMs);
        const b = median(baseMs);
        // The page after a first page: cut from the ranking the first page made.
        const nextMs: number[] = [];
        for (let i = 0; i < opts.runs; i++) {
          await timed(weft.url, '/calls/stream_query', page(field));
          nextMs.push(await timed(weft.url, '/calls/stream_query', { ...page(field), offset: 100 }));
        }
        rows.push({
          figure: `Calls sorted by ${field.slice('summary.weave.'.length)}, first 100 of ${what}`,
          weft: fmtMs(w),
          baseline: `${fmtMs(b)} (sorted by latency_ms in SQL)`,
          ratio: fmtRatio(w / b),
          target: roots ? '< 1000 ms' : '-',
          met: roots ? w < 1000 : null,
        });
        rows.push({
          figure: `  the next 100 (offset 100), after the first page`,
          weft: fmtMs(median(nextMs)),
          baseline: `${fmtMs(w)} (the first page)`,
          ratio: fmtRatio(median(nextMs) / w),
          target: '-',
          met: null,
        });
      }
      const pathsMs: number[] = [];
      const countMs: number[] = [];
      let found = 0;
      for (let i = 0; i < opts.runs; i++) {
        const t = performance.now();
        const r = await postOk(weft.url, '/ui/api/call_paths', JSON.stringify({ project_id: project, filter }));
        pathsMs.push(performance.now() - t);
        found = (JSON.parse(r.body) as { paths: string[] }).paths.length;
        countMs.push(await timed(weft.url, '/calls/query_stats', { project_id: project, filter }));
      }
      rows.push({
        figure: `Column paths (/ui/api/call_paths) of ${what}: ${found} paths`,
        weft: fmtMs(median(pathsMs)),
        baseline: `${fmtMs(median(countMs))} (/calls/query_stats, same calls)`,
        ratio: fmtRatio(median(pathsMs) / median(countMs)),
        target: roots ? '< 1000 ms' : '-',
        met: roots ? median(pathsMs) < 1000 : null,
      });
    }
    return {
      name: 'calls-sort',
      rows,
      notes: [
        `${opts.runs} runs each, one request at a time, after one unmeasured request; the sorted pages carry include_costs as the table asks.`,
      ],
    };
  } finally {
    await weft.stop();
  }
}

if (isMain(import.meta.url)) await runAlone(run);
