// Delete: POST /calls/delete of one trace of about 10 calls (by its root; the size nearest 10
// of which the dataset has enough traces, 11 at 1M calls) in the seeded BENCH_CALLS database,
// p50 and p99, one request in flight. Baseline: a bare Fastify route answering the same
// `{"num_deleted":N}`. The deleted traces are restored afterwards (deleted_at cleared,
// directly in the file), so the shared database is left as it was.
// Run alone: node --import tsx bench/delete.ts
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_FILE } from '../src/storage/sqlite/store.js';
import { callKeyOf, keyParams } from '../src/storage/sqlite/calls/call-keys.js';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import { postOk } from './lib/http.js';
import { compareLatency, summarize, type LatencyRun } from './lib/latency.js';
import type { BenchResult } from './lib/report.js';
import { startBare, startWeft } from './lib/server.js';
import { fmtInt, fmtMs, fmtRatio } from './lib/stats.js';

const PER_RUN = 40;
const WARMUP = 5;
/** Trace sizes to try, nearest 10 first. */
const SIZES = [10, 11, 9, 12, 8, 13, 7, 14, 6, 15];

/**
 * `n` traces of one size, the one nearest 10 calls the dataset has `n` of, and their root
 * ids (read straight from the file, before Weft starts).
 */
function tracesToDelete(
  file: string,
  project: string,
  n: number,
): { size: number; traceIds: string[]; roots: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    const sizes = new Map<number, string[]>();
    for (const r of db
      .prepare(`SELECT trace_id, COUNT(*) AS n FROM calls WHERE project_id = ? GROUP BY trace_id`)
      .iterate(project) as Iterable<{ trace_id: string; n: number }>) {
      const list = sizes.get(r.n) ?? sizes.set(r.n, []).get(r.n)!;
      if (list.length < n) list.push(r.trace_id);
    }
    const size = SIZES.find((s) => (sizes.get(s)?.length ?? 0) >= n);
    if (size === undefined) throw new Error(`the dataset has fewer than ${n} traces of any size from 6 to 15 calls`);
    const traceIds = sizes.get(size)!;
    const root = db
      .prepare(
        `SELECT id FROM calls WHERE trace_key = ${callKeyOf('?')} AND +project_id = ? AND trace_id = ? AND parent_id IS NULL`,
      )
      .pluck();
    return { size, traceIds, roots: traceIds.map((t) => root.get(...keyParams(t), project, t) as string) };
  } finally {
    db.close();
  }
}

function restore(file: string, project: string, traceIds: readonly string[]): number {
  const db = new Database(file);
  try {
    return db
      .prepare(`UPDATE calls SET deleted_at = NULL
      WHERE trace_key IN (SELECT ${callKeyOf('value')} FROM json_each(?)) AND +project_id = ? AND trace_id IN (SELECT value FROM json_each(?))`)
      .run(JSON.stringify(traceIds), project, JSON.stringify(traceIds)).changes;
  } finally {
    db.close();
  }
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureDataset(opts);
  const file = join(dir, SQLITE_FILE);
  const needed = WARMUP + opts.runs * PER_RUN;
  const { size, traceIds, roots } = tracesToDelete(file, manifest.project, needed);
  const bodies = roots.map((id) => JSON.stringify({ project_id: manifest.project, call_ids: [id] }));
  const answer = JSON.stringify({ num_deleted: size });
  const weft = await startWeft(opts, dir);
  try {
    const base = await startBare({ '/calls/delete': answer });
    try {
      const runs: LatencyRun[] = [];
      // Every Weft request deletes a different trace: warm-up takes the first WARMUP, run i the next PER_RUN.
      for (let i = 0; i < opts.runs; i++) {
        runs.push(
          await compareLatency(
            { url: weft.url, path: '/calls/delete', bodies },
            { url: base.url, path: '/calls/delete', bodies },
            PER_RUN,
            10,
            i === 0 ? WARMUP : 0,
            WARMUP + i * PER_RUN,
          ),
        );
      }
      const left = JSON.parse(
        (
          await postOk(weft.url, '/calls/query_stats', {
            project_id: manifest.project,
            filter: { trace_ids: traceIds },
          })
        ).body,
      ) as { count: number };
      if (left.count !== 0) throw new Error(`${left.count} calls of the deleted traces are still live`);
      const s = summarize(runs);
      return {
        name: 'delete',
        rows: [
          {
            figure: `Delete a ${size}-call trace /calls/delete p50 (${fmtInt(manifest.calls)} calls)`,
            weft: fmtMs(s.weftP50),
            baseline: `${fmtMs(s.baseP50)} (bare, ${answer.length} B)`,
            ratio: fmtRatio(s.ratioP50),
            target: '< 5 ms',
            met: s.weftP50 < 5,
          },
          {
            figure: `Delete a ${size}-call trace /calls/delete p99 (${fmtInt(manifest.calls)} calls)`,
            weft: fmtMs(s.weftP99),
            baseline: `${fmtMs(s.baseP99)} (bare)`,
            ratio: fmtRatio(s.ratioP99),
            target: '-',
            met: null,
          },
        ],
        notes: [
          `${opts.runs} runs x ${PER_RUN} sequential deletes of different ${size}-call traces (by root id), alternating blocks of 10 with the baseline; every delete acknowledged after its commit (synchronous=FULL). The traces are restored afterwards.`,
        ],
      };
    } finally {
      await base.stop();
    }
  } finally {
    await weft.stop();
    restore(file, manifest.project, traceIds);
  }
}

if (isMain(import.meta.url)) await runAlone(run);
