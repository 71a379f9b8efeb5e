// Ingest: calls/s through POST /call/upsert_batch, start+end pairs in SDK-sized batches,
// several concurrent clients with one batch in flight each (as each SDK client keeps one).
// Baseline (the floor): a raw better-sqlite3 insert of the same rows, already merged and
// encoded, into the same schema with the same pragmas, one transaction per batch, in this
// process. Each run ingests into a fresh data dir; floor and Weft runs are interleaved.
// Run alone: node --import tsx bench/ingest.ts
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { toEndPart, toStartPart } from '../src/service/calls/call-parts.js';
import { openSqlite } from '../src/storage/sqlite/engine/database.js';
import { SQLITE_MIGRATIONS } from '../src/storage/sqlite/engine/migrations/index.js';
import { createSqliteStore, SQLITE_FILE } from '../src/storage/sqlite/store.js';
import type { CallPart } from '../src/storage/calls/call-store.js';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, dataPath, type BenchOptions } from './lib/config.js';
import { generateTraces, type BatchItem } from './lib/gen-calls.js';
import { USER_ID } from './lib/dataset.js';
import { post, postOk } from './lib/http.js';
import type { BenchResult } from './lib/report.js';
import { cpuSeconds, startWeft, writtenBytes, type ServerProc } from './lib/server.js';
import { fmtMB, fmtMs, fmtRate, fmtRatio, median, percentile } from './lib/stats.js';

const ROW_COLUMNS = [
  'project_id',
  'id',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'op_name',
  'display_name',
  'started_at',
  'ended_at',
  'attributes',
  'inputs',
  'output',
  'exception',
  'summary',
  'input_refs',
  'output_refs',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'wb_run_step_end',
  'start_bytes',
  'end_bytes',
] as const;
type RowValues = (string | number | null)[];

export interface Traffic {
  /** request bodies, `{"batch":[...]}` */
  readonly bodies: string[];
  /** the same batches as the parts the server derives from them */
  readonly partBatches: CallPart[][];
  /** the same calls as final rows, grouped as one transaction per batch */
  readonly rowGroups: RowValues[][];
  readonly calls: number;
  readonly bytes: number;
}

/** The SDK-shaped traffic, its parts and the equivalent rows, prepared before anything is timed. */
export function prepareTraffic(opts: BenchOptions): Traffic {
  const items: BatchItem[] = [];
  for (const t of generateTraces({ seed: `${opts.seed}:ingest`, calls: opts.ingestCalls, bigTraceCalls: 0 }))
    items.push(...t.items);
  const bodies: string[] = [];
  const partBatches: CallPart[][] = [];
  // Final rows: the parts merged per call (sizes as the store computes them).
  const rows = new Map<string, Record<string, string | number | null>>();
  const rowOf = (id: string) => rows.get(id) ?? rows.set(id, {}).get(id)!;
  for (let i = 0; i < items.length; i += opts.batchItems) {
    const batch = items.slice(i, i + opts.batchItems);
    bodies.push(JSON.stringify({ batch }));
    partBatches.push(
      batch.map((it): CallPart => {
        if (it.mode === 'start') {
          const s = toStartPart(it.req.start, USER_ID);
          Object.assign(rowOf(s.id), s, {
            input_refs: JSON.stringify(s.input_refs),
            start_bytes: s.attributes.length + s.inputs.length + s.op_name.length + 96,
          });
          return { mode: 'start', start: s };
        }
        const e = toEndPart(it.req.end);
        Object.assign(rowOf(e.id), e, {
          output_refs: JSON.stringify(e.output_refs),
          end_bytes: e.output.length + e.summary.length + 32,
        });
        return { mode: 'end', end: e };
      }),
    );
  }
  const all = [...rows.values()].map((r) => ROW_COLUMNS.map((c) => r[c] ?? null));
  const perTx = Math.max(1, Math.floor(opts.batchItems / 2));
  const rowGroups: RowValues[][] = [];
  for (let i = 0; i < all.length; i += perTx) rowGroups.push(all.slice(i, i + perTx));
  return { bodies, partBatches, rowGroups, calls: rows.size, bytes: bodies.reduce((n, b) => n + b.length, 0) };
}

/** Weft's storage layer alone: the same parts through CallStore.writeParts, one batch per transaction, no HTTP. */
async function storeRun(traffic: Traffic, dir: string): Promise<number> {
  rmSync(dir, { recursive: true, force: true });
  const store = createSqliteStore(dir);
  const t0 = performance.now();
  for (const parts of traffic.partBatches) await store.calls.writeParts(parts);
  const s = (performance.now() - t0) / 1000;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return traffic.calls / s;
}

/** The floor: calls/s of plain INSERTs of the final rows, durable commits as the server makes them. */
function floorRun(traffic: Traffic, dir: string): number {
  rmSync(dir, { recursive: true, force: true });
  const db = openSqlite(join(dir, SQLITE_FILE), SQLITE_MIGRATIONS);
  const insert = db.prepare(
    `INSERT INTO calls (${ROW_COLUMNS.join(', ')}) VALUES (${ROW_COLUMNS.map(() => '?').join(', ')})`,
  );
  const tx = db.transaction((rows: RowValues[]) => {
    for (const r of rows) insert.run(r);
  });
  const t0 = performance.now();
  for (const g of traffic.rowGroups) tx(g);
  const s = (performance.now() - t0) / 1000;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return traffic.calls / s;
}

export interface WeftRun {
  readonly rate: number;
  readonly batchMs: number[];
  /** server CPU seconds per wall second while ingesting (1.0 = one core busy) */
  readonly cpu: number;
  readonly peakRss: number;
  /** bytes the server wrote (write(2) and kin, all threads: WAL frames, checkpoints, responses) per call */
  readonly writtenPerCall: number;
}

async function weftRun(opts: BenchOptions, traffic: Traffic, dir: string, check: boolean): Promise<WeftRun> {
  rmSync(dir, { recursive: true, force: true });
  const server = await startWeft(opts, dir);
  try {
    return await driveIngest(server, traffic, opts.clients, check);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends the traffic through `clients` concurrent clients (one batch in flight each); checks the count when asked. */
export async function driveIngest(
  server: ServerProc,
  traffic: Traffic,
  clients: number,
  check: boolean,
): Promise<WeftRun> {
  {
    const batchMs: number[] = [];
    let next = 0;
    let peakRss = server.rss();
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rss())), 100);
    const client = async () => {
      for (let i = next++; i < traffic.bodies.length; i = next++) {
        const r = await post(server.url, '/call/upsert_batch', traffic.bodies[i]!);
        if (r.status !== 200) throw new Error(`upsert_batch -> ${r.status}: ${r.body.slice(0, 300)}`);
        batchMs.push(r.ms);
      }
    };
    const cpu0 = cpuSeconds(server.pid);
    const written0 = writtenBytes(server.pid);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: clients }, client));
    const s = (performance.now() - t0) / 1000;
    const cpu = (cpuSeconds(server.pid) - cpu0) / s;
    const writtenPerCall = (writtenBytes(server.pid) - written0) / traffic.calls;
    clearInterval(sampler);
    if (check) {
      const stats = JSON.parse(
        (await postOk(server.url, '/calls/query_stats', { project_id: 'bench-entity/bench-project' })).body,
      ) as { count: number };
      if (stats.count !== traffic.calls)
        throw new Error(`ingested ${traffic.calls} calls but query_stats counts ${stats.count}`);
    }
    return { rate: traffic.calls / s, batchMs, cpu, peakRss, writtenPerCall };
  }
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const traffic = prepareTraffic(opts);
  const floors: number[] = [];
  const stores: number[] = [];
  const wefts: WeftRun[] = [];
  for (let i = 0; i < opts.runs; i++) {
    floors.push(floorRun(traffic, dataPath('tmp', 'ingest-floor')));
    stores.push(await storeRun(traffic, dataPath('tmp', 'ingest-store')));
    wefts.push(await weftRun(opts, traffic, dataPath('tmp', 'ingest-weft'), i === 0));
    process.stderr.write(
      `bench: ingest run ${i + 1}/${opts.runs}: Weft ${fmtRate(wefts[i]!.rate, 'calls')}, writeParts ${fmtRate(stores[i]!, 'calls')}, floor ${fmtRate(floors[i]!, 'calls')}\n`,
    );
  }
  const weft = median(wefts.map((w) => w.rate));
  const floor = median(floors);
  // Ratios are taken per run (floor and Weft ran back to back) and then their median.
  const ratio = median(wefts.map((w, i) => w.rate / floors[i]!));
  const batchMs = wefts.flatMap((w) => w.batchMs);
  return {
    name: 'ingest',
    rows: [
      {
        figure: `Ingest /call/upsert_batch (${opts.clients} clients, ${opts.batchItems} items/batch)`,
        weft: fmtRate(weft, 'calls'),
        baseline: `${fmtRate(floor, 'calls')} (raw insert)`,
        ratio: fmtRatio(ratio),
        target: '>= 0.50x and >= 20,000 calls/s',
        met: ratio >= 0.5 && weft >= 20_000,
      },
      {
        figure: 'Ingest, storage layer only (CallStore.writeParts, no HTTP)',
        weft: fmtRate(median(stores), 'calls'),
        baseline: `${fmtRate(floor, 'calls')} (raw insert)`,
        ratio: fmtRatio(median(stores.map((x, i) => x / floors[i]!))),
        target: '(diagnostic)',
        met: null,
      },
    ],
    notes: [
      `${traffic.calls} calls per run in ${traffic.bodies.length} batches (${fmtMB(traffic.bytes)} of JSON, ${Math.round(traffic.bytes / traffic.bodies.length / 1024)} KiB per batch) into a fresh data dir.`,
      `Weft per run: ${wefts.map((w) => fmtRate(w.rate, 'calls')).join(', ')}; writeParts per run: ${stores.map((f) => fmtRate(f, 'calls')).join(', ')}; floor per run: ${floors.map((f) => fmtRate(f, 'calls')).join(', ')}.`,
      `upsert_batch latency: p50 ${fmtMs(percentile(batchMs, 50))}, p99 ${fmtMs(percentile(batchMs, 99))}; server CPU while ingesting: ${median(wefts.map((w) => w.cpu)).toFixed(2)} cores; peak server RSS ${fmtMB(Math.max(...wefts.map((w) => w.peakRss)))}.`,
    ],
  };
}

if (isMain(import.meta.url)) await runAlone(run);
