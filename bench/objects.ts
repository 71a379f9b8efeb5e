// Objects: POST /objs/query with latest_only over 100,000 versions of 10,000 objects
// (every latest version with values; the same with metadata_only; a first page of 100,
// newest first, as a UI lists them), and POST /obj/read by digest, on the seeded database. Baseline: a
// bare Fastify route returning a fixed JSON body of the same size as Weft's answer.
// Run alone: node --import tsx bench/objects.ts
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_FILE } from '../src/storage/sqlite/store.js';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import { postOk } from './lib/http.js';
import { compareLatency, medianBody, summarize, type LatencyRun } from './lib/latency.js';
import type { BenchResult, Row } from './lib/report.js';
import { Rng } from './lib/rng.js';
import { startBare, startWeft } from './lib/server.js';
import { fmtInt, fmtMs, fmtRatio } from './lib/stats.js';

interface Case {
  readonly label: string;
  readonly path: string;
  readonly bodies: string[];
  /** requests per run */
  readonly n: number;
  readonly targetMs: number | null;
  /** Weft's p99 gets a row too */
  readonly p99: boolean;
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest: m } = await ensureDataset(opts);
  const reads = new Rng(`${opts.seed}:obj-read`)
    .shuffle([...m.sampleObjects])
    .map((o) => JSON.stringify({ project_id: m.project, object_id: o.object_id, digest: o.digest }));
  const scale = `${fmtInt(m.objectVersions)} versions of ${fmtInt(m.objects)} objects`;
  const cases: Case[] = [
    {
      label: `/objs/query latest_only, all ${fmtInt(m.objects)} (${scale})`,
      path: '/objs/query',
      n: 20,
      targetMs: 20,
      p99: false,
      bodies: [JSON.stringify({ project_id: m.project, filter: { latest_only: true } })],
    },
    {
      label: `/objs/query latest_only + metadata_only, all ${fmtInt(m.objects)} (${scale})`,
      path: '/objs/query',
      n: 20,
      targetMs: 20,
      p99: false,
      bodies: [JSON.stringify({ project_id: m.project, filter: { latest_only: true }, metadata_only: true })],
    },
    {
      label: `/objs/query latest_only, limit 100 by created_at desc (${scale})`,
      path: '/objs/query',
      n: 200,
      targetMs: 20,
      p99: false,
      bodies: [
        JSON.stringify({
          project_id: m.project,
          filter: { latest_only: true },
          sort_by: [{ field: 'created_at', direction: 'desc' }],
          limit: 100,
        }),
      ],
    },
    {
      label: `/obj/read by digest p50 (${scale})`,
      path: '/obj/read',
      n: 500,
      targetMs: null,
      p99: true,
      bodies: reads,
    },
  ];
  const weft = await startWeft(opts, dir);
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    for (const c of cases) {
      const answers: string[] = [];
      for (const b of c.bodies.slice(0, 51)) answers.push((await postOk(weft.url, c.path, b)).body);
      const fixed = medianBody(answers);
      const base = await startBare({ [c.path]: fixed });
      try {
        const runs: LatencyRun[] = [];
        for (let i = 0; i < opts.runs; i++) {
          const block = Math.max(5, Math.floor(c.n / 10));
          runs.push(
            await compareLatency(
              { url: weft.url, path: c.path, bodies: c.bodies },
              { url: base.url, path: c.path, bodies: c.bodies },
              c.n,
              block,
              i === 0 ? 5 : 0,
              i * c.n,
            ),
          );
        }
        const s = summarize(runs);
        const baseline = `${fmtMs(s.baseP50)} (bare, ${fmtInt(fixed.length)} B)`;
        rows.push({
          figure: `Objects ${c.label}`,
          weft: fmtMs(s.weftP50),
          baseline,
          ratio: fmtRatio(s.ratioP50),
          target: c.targetMs === null ? '-' : `< ${c.targetMs} ms`,
          met: c.targetMs === null ? null : s.weftP50 < c.targetMs,
        });
        if (c.p99) {
          rows.push({
            figure: `Objects ${c.label.replace('p50', 'p99')}`,
            weft: fmtMs(s.weftP99),
            baseline: `${fmtMs(s.baseP99)} (bare)`,
            ratio: fmtRatio(s.ratioP99),
            target: '-',
            met: null,
          });
        }
        notes.push(
          `${c.label}: ${opts.runs} runs x ${c.n} requests (p50 per run: ${runs.map((r) => fmtMs(summarize([r]).weftP50)).join(', ')}); answer ${fmtInt(fixed.length)} B.`,
        );
      } finally {
        await base.stop();
      }
    }
    // Evidence for the listing queries: how SQLite runs them.
    const db = new Database(join(dir, SQLITE_FILE), { readonly: true, fileMustExist: true });
    try {
      const plan = (sql: string) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(m.project) as { detail: string }[])
          .map((p) => p.detail)
          .join('; ');
      notes.push(
        `plan of latest_only (all): ${plan('SELECT * FROM object_versions v WHERE v.project_id = ? AND v.deleted_at IS NULL AND v.is_latest = 1 ORDER BY v.created_at ASC, v.version_index ASC')}`,
      );
      notes.push(
        `plan of latest_only (limit 100, created_at desc): ${plan('SELECT * FROM object_versions v WHERE v.project_id = ? AND v.deleted_at IS NULL AND v.is_latest = 1 ORDER BY v.created_at DESC, v.version_index ASC LIMIT 100')}`,
      );
    } finally {
      db.close();
    }
  } finally {
    await weft.stop();
  }
  return { name: 'objects', rows, notes };
}

if (isMain(import.meta.url)) await runAlone(run);
