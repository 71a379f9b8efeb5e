// Where the benchmarks keep things, and the options read from the environment.
// Contract: every option has a default that reproduces the figures (1,000,000
// calls, medians over 5 runs); smaller values are for smoke runs only.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const REPO_DIR = dirname(BENCH_DIR);
/** Cached databases, the server build, scratch data dirs (never committed). */
export const DATA_DIR = join(BENCH_DIR, '.data');
export const RESULTS_DIR = join(BENCH_DIR, 'results');

export interface BenchOptions {
  /** calls in the seeded database (BENCH_CALLS, default 1,000,000) */
  readonly calls: number;
  /** repetitions whose median is reported (BENCH_RUNS, default 5) */
  readonly runs: number;
  /** calls sent per ingest run (BENCH_INGEST_CALLS, default min(100,000, BENCH_CALLS)) */
  readonly ingestCalls: number;
  /** concurrent ingest clients, one upsert_batch in flight each (BENCH_CLIENTS, default 4) */
  readonly clients: number;
  /** items (start or end parts) per upsert_batch (BENCH_BATCH_ITEMS, default 500) */
  readonly batchItems: number;
  /** the slow reader's rate for the memory figure, MB/s (BENCH_SLOW_MBPS, default 20) */
  readonly slowReaderMBps: number;
  /** how the server runs: 'dist' (tsc output, as `npm start` runs it) or 'tsx' (BENCH_SERVER) */
  readonly server: 'dist' | 'tsx';
  readonly seed: string;
  /** spans in the agents benchmark's database (BENCH_AGENT_SPANS, default 1,000,000) */
  readonly agentSpans: number;
  /** the engines the agents benchmark reads (BENCH_AGENT_ENGINES, default both; `--engine` sets it) */
  readonly agentEngines: readonly ('sqlite' | 'clickhouse')[];
}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function agentEngines(raw: string): ('sqlite' | 'clickhouse')[] {
  const list = raw.split(',').map((e) => e.trim());
  const bad = list.filter((e) => e !== 'sqlite' && e !== 'clickhouse');
  if (bad.length > 0 || list.length === 0)
    throw new Error(`BENCH_AGENT_ENGINES takes sqlite and/or clickhouse, got "${raw}"`);
  return list as ('sqlite' | 'clickhouse')[];
}

export function benchOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const calls = int(env, 'BENCH_CALLS', 1_000_000, 1000);
  const server = env.BENCH_SERVER ?? 'dist';
  if (server !== 'dist' && server !== 'tsx') throw new Error(`BENCH_SERVER must be dist or tsx, got "${server}"`);
  return {
    calls,
    runs: int(env, 'BENCH_RUNS', 5),
    ingestCalls: int(env, 'BENCH_INGEST_CALLS', Math.min(100_000, calls)),
    clients: int(env, 'BENCH_CLIENTS', 4),
    batchItems: int(env, 'BENCH_BATCH_ITEMS', 500, 2),
    slowReaderMBps: int(env, 'BENCH_SLOW_MBPS', 20),
    server,
    seed: env.BENCH_SEED ?? 'weft-bench',
    agentSpans: int(env, 'BENCH_AGENT_SPANS', 1_000_000, 10_000),
    agentEngines: agentEngines(env.BENCH_AGENT_ENGINES ?? 'sqlite,clickhouse'),
  };
}

/** Creates (if needed) and returns a directory under bench/.data/. */
export function dataPath(...parts: string[]): string {
  const p = join(DATA_DIR, ...parts);
  mkdirSync(p, { recursive: true });
  return p;
}

/** Size of the one big trace of query (c): 50,000 calls, less in small smoke databases. */
export const bigTraceCalls = (calls: number) => Math.min(50_000, Math.floor(calls / 20));
/** Objects figures: 100,000 versions of 10,000 objects (scaled down with BENCH_CALLS below 1M). */
export const objectsPlanFor = (calls: number) => {
  const scale = Math.min(1, calls / 1_000_000);
  return { objects: Math.max(100, Math.round(10_000 * scale)), versions: Math.max(1000, Math.round(100_000 * scale)) };
};
