// Query: POST /calls/stream_query on the seeded database, time to the first row (first
// complete JSON line) and to the last byte, for
//   (a) trace_roots_only + op_names, sorted by started_at desc, limit 100;
//   (b) a $expr filter on an `inputs.` JSON path, sorted by another `inputs.` path, limit 100;
//   (c) every call of the one big (50,000-call) trace.
// Baseline: the same SQL Weft generates (buildCallsSelect of the compiled request), run
// in this process on a read-only better-sqlite3 connection, rows read as objects: what the
// database alone costs. The notes carry each query's SQL and EXPLAIN QUERY PLAN.
// Run alone: node --import tsx bench/query.ts
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compileCallsQuery, type CallsQueryInput } from '../src/query/compile-calls-query.js';
import { buildCallsSelect } from '../src/storage/sqlite/calls/call-select.js';
import { SQLITE_FILE } from '../src/storage/sqlite/store.js';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, type BenchOptions } from './lib/config.js';
import { ensureDataset, type Manifest } from './lib/dataset.js';
import { postStream, type StreamStats } from './lib/http.js';
import type { BenchResult, Row } from './lib/report.js';
import { startWeft } from './lib/server.js';
import { fmtInt, fmtMs, fmtRatio, median } from './lib/stats.js';

interface QuerySpec {
  readonly key: 'a' | 'b' | 'c';
  readonly label: string;
  readonly req: CallsQueryInput;
  /** rows expected, when known */
  readonly rows: number | null;
  readonly firstRowTarget: number | null;
  readonly totalTarget: number | null;
}

export function querySpecs(m: Manifest): QuerySpec[] {
  const project_id = m.project;
  return [
    {
      key: 'a',
      label: '(a) roots + op_names, started_at desc, limit 100',
      req: {
        project_id,
        filter: { trace_roots_only: true, op_names: [m.rootOpRef] },
        sort_by: [{ field: 'started_at', direction: 'desc' }],
        limit: 100,
      },
      rows: 100,
      firstRowTarget: 50,
      totalTarget: null,
    },
    {
      key: 'b',
      label: '(b) $expr on inputs.model, sort inputs.temperature, limit 100',
      req: {
        project_id,
        query: { $expr: { $eq: [{ $getField: 'inputs.model' }, { $literal: 'gpt-4o-mini' }] } },
        sort_by: [{ field: 'inputs.temperature', direction: 'desc' }],
        limit: 100,
      },
      rows: 100,
      firstRowTarget: null,
      totalTarget: null,
    },
    {
      key: 'c',
      label: `(c) one trace, all ${fmtInt(m.bigTraceCalls)} calls`,
      req: { project_id, filter: { trace_ids: [m.bigTraceId] } },
      rows: m.bigTraceCalls,
      firstRowTarget: null,
      totalTarget: 1000,
    },
  ];
}

interface Timing {
  readonly firstRowMs: number;
  readonly totalMs: number;
  readonly rows: number;
}

/** The database alone: Weft's SQL for the request, iterated in-process. */
function sqliteRun(db: Database.Database, req: CallsQueryInput): Timing {
  const { sql, params } = buildCallsSelect(compileCallsQuery(req));
  const t0 = performance.now();
  let firstRowMs = NaN;
  let rows = 0;
  for (const _row of db.prepare(sql).iterate(...params)) {
    if (rows++ === 0) firstRowMs = performance.now() - t0;
  }
  return { firstRowMs, totalMs: performance.now() - t0, rows };
}

function explain(db: Database.Database, req: CallsQueryInput): string {
  const { sql, params } = buildCallsSelect(compileCallsQuery(req));
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as {
    id: number;
    parent: number;
    detail: string;
  }[];
  const depth = new Map<number, number>([[0, 0]]);
  const lines = plan.map((p) => {
    const d = (depth.get(p.parent) ?? 0) + 1;
    depth.set(p.id, d);
    return `${'  '.repeat(d)}${p.detail}`;
  });
  return `SQL: ${sql}\nparams: ${JSON.stringify(params, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}\nplan:\n${lines.join('\n')}`;
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { dir, manifest } = await ensureDataset(opts);
  const specs = querySpecs(manifest);
  const weft = await startWeft(opts, dir);
  const db = new Database(join(dir, SQLITE_FILE), { readonly: true, fileMustExist: true });
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    for (const spec of specs) {
      const body = JSON.stringify(spec.req);
      const w: StreamStats[] = [];
      const s: Timing[] = [];
      // One unmeasured run of each warms the page cache and the statement caches.
      for (let i = -1; i < opts.runs; i++) {
        const r = await postStream(weft.url, '/calls/stream_query', body);
        if (r.status !== 200) throw new Error(`stream_query ${spec.key} -> ${r.status}`);
        if (spec.rows !== null && r.lines !== spec.rows)
          throw new Error(`query ${spec.key}: ${r.lines} rows, expected ${spec.rows}`);
        const b = sqliteRun(db, spec.req);
        if (i >= 0) {
          w.push(r);
          s.push(b);
        }
        process.stderr.write(
          `bench: query ${spec.key} run ${i + 1}/${opts.runs}: first row ${fmtMs(r.firstRowMs)}, total ${fmtMs(r.totalMs)} (sqlite ${fmtMs(b.totalMs)})\n`,
        );
      }
      const ratio = (f: (t: { firstRowMs: number; totalMs: number }) => number) =>
        median(w.map((x, i) => f(x) / f(s[i]!)));
      const wf = median(w.map((x) => x.firstRowMs));
      const wt = median(w.map((x) => x.totalMs));
      rows.push({
        figure: `Query ${spec.label}: first row`,
        weft: fmtMs(wf),
        baseline: `${fmtMs(median(s.map((x) => x.firstRowMs)))} (sqlite)`,
        ratio: fmtRatio(ratio((t) => t.firstRowMs)),
        target: spec.firstRowTarget === null ? '-' : `< ${spec.firstRowTarget} ms`,
        met: spec.firstRowTarget === null ? null : wf < spec.firstRowTarget,
      });
      rows.push({
        figure: `Query ${spec.label}: total`,
        weft: fmtMs(wt),
        baseline: `${fmtMs(median(s.map((x) => x.totalMs)))} (sqlite)`,
        ratio: fmtRatio(ratio((t) => t.totalMs)),
        target: spec.totalTarget === null ? '-' : `< ${spec.totalTarget} ms`,
        met: spec.totalTarget === null ? null : wt < spec.totalTarget,
      });
      notes.push(`${spec.label}: ${w[0]!.lines} rows, ${fmtInt(median(w.map((x) => x.bytes)))} B; request ${body}`);
      notes.push(explain(db, spec.req));
    }
  } finally {
    db.close();
    await weft.stop();
  }
  return { name: 'query', rows, notes };
}

if (isMain(import.meta.url)) await runAlone(run);
