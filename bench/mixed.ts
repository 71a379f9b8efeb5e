// Mixed load: the ingest traffic of the ingest benchmark (BENCH_CLIENTS clients,
// BENCH_BATCH_ITEMS items per /call/upsert_batch) while every other kind of write runs at
// once (call deletes and updates, objects with tags and deletes, tables, files, feedback,
// costs, time-to-live changes with the retention job purging) and readers of every kind
// (bench/lib/mixed-load.ts), each pausing OTHERS_PAUSE_MS between requests. Figures: GET
// /health latency under that load (a prober in a process of its own, one request in flight
// every 10 ms) against /health on the same server idle, and ingest
// throughput against the same traffic ingested alone into a fresh data dir in the same run.
// Run alone: node --import tsx bench/mixed.ts
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { isMain, runAlone } from './lib/cli.js';
import { BENCH_DIR, benchOptions, dataPath, type BenchOptions } from './lib/config.js';
import { PROJECT } from './lib/gen-calls.js';
import { runMixedLoad, type IngestBatch } from './lib/mixed-load.js';
import type { BenchResult } from './lib/report.js';
import { startWeft } from './lib/server.js';
import { fmtMs, fmtRate, fmtRatio, median, percentile } from './lib/stats.js';
import { prepareTraffic } from './ingest.js';

const EXPIRING = 'bench-entity/expiring';
const PROBE_EVERY_MS = 10;
/** Each other writer and reader pauses this long between requests: a steady mix (about 100 requests/s besides ingest), not a flood. */
const OTHERS_PAUSE_MS = 100;
const MAX_FILE_BYTES = 500_000;
/** How long the idle server is probed first (the baseline). */
const IDLE_MS = 3000;

/** The traffic's batches, each with its calls and the traces wholly inside it (root first). */
function ingestBatches(opts: BenchOptions): { batches: IngestBatch[]; calls: number } {
  const traffic = prepareTraffic(opts);
  const batchOfTrace = new Map<string, Set<number>>();
  const members = new Map<string, string[]>();
  traffic.partBatches.forEach((parts, b) => {
    for (const p of parts) {
      if (p.mode !== 'start') continue;
      const t = p.start.trace_id;
      (batchOfTrace.get(t) ?? batchOfTrace.set(t, new Set()).get(t)!).add(b);
      const ids = members.get(t) ?? members.set(t, []).get(t)!;
      if (p.start.parent_id === null) ids.unshift(p.start.id);
      else ids.push(p.start.id);
    }
  });
  const batches = traffic.bodies.map((body, b): IngestBatch => {
    const starts = traffic.partBatches[b]!.flatMap((p) => (p.mode === 'start' ? [p.start] : []));
    const whole = [...new Set(starts.map((s) => s.trace_id))].filter((t) => batchOfTrace.get(t)!.size === 1);
    return { body, calls: starts.map((s) => s.id), traces: whole.map((t) => members.get(t)!) };
  });
  return { batches, calls: traffic.calls };
}

/** Ten calls of the expiring project started at `startedAt`, start and end in one batch. */
function expiringBatch(startedAt: string): string {
  const batch = Array.from({ length: 10 }, () => {
    const id = randomUUID();
    const start = {
      project_id: EXPIRING,
      id,
      trace_id: randomUUID(),
      op_name: 'expiring-op',
      started_at: startedAt,
      attributes: {},
      inputs: { x: 1 },
    };
    const end = { project_id: EXPIRING, id, ended_at: startedAt, output: 1, summary: {} };
    return [
      { mode: 'start', req: { start } },
      { mode: 'end', req: { end } },
    ];
  }).flat();
  return JSON.stringify({ batch });
}

/**
 * Probes GET /health from a process of its own (bench/lib/health-prober.mjs), one every
 * `everyMs`, until `stop`; resolves with the latencies in ms.
 */
export function startProber(url: string, everyMs = PROBE_EVERY_MS): { stop: () => Promise<number[]> } {
  const child = spawn(process.execPath, [join(BENCH_DIR, 'lib', 'health-prober.mjs'), url, String(everyMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number[]>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`health prober exited ${code}`)),
    );
  });
  return {
    stop() {
      child.stdin!.end();
      return exited;
    },
  };
}

interface Phase {
  readonly rate: number;
  readonly health: number[];
  readonly idleHealth: number[];
  readonly requests: number;
  readonly seconds: number;
}

async function phase(
  opts: BenchOptions,
  batches: readonly IngestBatch[],
  calls: number,
  others: boolean,
  dir: string,
): Promise<Phase> {
  rmSync(dir, { recursive: true, force: true });
  const server = await startWeft(opts, dir);
  try {
    let idleHealth: number[] = [];
    if (others) {
      const idle = startProber(server.url);
      await new Promise((r) => setTimeout(r, IDLE_MS));
      idleHealth = await idle.stop();
    }
    let next = 0;
    const prober = startProber(server.url);
    const rec = await runMixedLoad({
      url: server.url,
      project: PROJECT,
      expiringProject: EXPIRING,
      ingestClients: opts.clients,
      others,
      expiringBatch,
      othersPauseMs: OTHERS_PAUSE_MS,
      maxFileBytes: MAX_FILE_BYTES,
      nextBatch: () => batches[next++] ?? null,
    });
    const health = await prober.stop();
    if (rec.failures.length > 0) throw new Error(`mixed load failed: ${rec.failures.slice(0, 5).join('; ')}`);
    if (rec.ingestedCalls !== calls) throw new Error(`ingested ${rec.ingestedCalls} calls of ${calls}`);
    // Requests of the other clients: all of them but the ingest clients' batches.
    const requests = [...rec.counts.values()].reduce((a, b) => a + b, 0) - batches.length;
    return { rate: calls / rec.ingestSeconds, health, idleHealth, requests, seconds: rec.ingestSeconds };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const { batches, calls } = ingestBatches(opts);
  const alone: Phase[] = [];
  const mixed: Phase[] = [];
  for (let i = 0; i < opts.runs; i++) {
    alone.push(await phase(opts, batches, calls, false, dataPath('tmp', 'mixed-alone')));
    mixed.push(await phase(opts, batches, calls, true, dataPath('tmp', 'mixed-load')));
    process.stderr.write(
      `bench: mixed run ${i + 1}/${opts.runs}: ingest alone ${fmtRate(alone[i]!.rate, 'calls')}, mixed ${fmtRate(mixed[i]!.rate, 'calls')}, /health p99 ${fmtMs(percentile(mixed[i]!.health, 99))}, max ${fmtMs(Math.max(...mixed[i]!.health))}\n`,
    );
  }
  const p99 = median(mixed.map((m) => percentile(m.health, 99)));
  const idleP99 = median(mixed.map((m) => percentile(m.idleHealth, 99)));
  const max = Math.max(...mixed.flatMap((m) => m.health));
  const idleMax = Math.max(...mixed.flatMap((m) => m.idleHealth));
  const ratio = median(mixed.map((m, i) => m.rate / alone[i]!.rate));
  const load = `${opts.clients} ingest clients + every other write + readers`;
  return {
    name: 'mixed',
    rows: [
      {
        figure: `Mixed load (${load}): GET /health p99`,
        weft: fmtMs(p99),
        baseline: `${fmtMs(idleP99)} (idle)`,
        ratio: fmtRatio(p99 / idleP99),
        target: '< 50 ms',
        met: p99 < 50,
      },
      {
        figure: 'Mixed load: GET /health max (all runs)',
        weft: fmtMs(max),
        baseline: `${fmtMs(idleMax)} (idle)`,
        ratio: fmtRatio(max / idleMax),
        target: '< 200 ms',
        met: max < 200,
      },
      {
        figure: 'Mixed load: ingest throughput',
        weft: fmtRate(median(mixed.map((m) => m.rate)), 'calls'),
        baseline: `${fmtRate(median(alone.map((a) => a.rate)), 'calls')} (ingest alone)`,
        ratio: fmtRatio(ratio),
        target: '>= 0.90x',
        met: ratio >= 0.9,
      },
    ],
    notes: [
      `${calls} calls per run in ${batches.length} batches; each phase on a fresh data dir; the other clients of the mixed phase sent ${median(mixed.map((m) => m.requests))} requests (median; ${median(mixed.map((m) => m.requests / m.seconds)).toFixed(0)} per second) besides the ingest batches.`,
      `/health p99 per run: ${mixed.map((m) => fmtMs(percentile(m.health, 99))).join(', ')}; max per run: ${mixed.map((m) => fmtMs(Math.max(...m.health))).join(', ')}; probes per run: ${mixed.map((m) => m.health.length).join(', ')}.`,
      `Ingest per run, mixed: ${mixed.map((m) => fmtRate(m.rate, 'calls')).join(', ')}; alone: ${alone.map((a) => fmtRate(a.rate, 'calls')).join(', ')}.`,
    ],
  };
}

if (isMain(import.meta.url)) await runAlone(run);
