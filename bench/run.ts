// `npm run bench`: runs every benchmark (or those named: `npm run bench -- ingest read`),
// prints the table and writes it, with the machine it ran on, to bench/results/latest.md
// (a partial run to bench/results/latest-<names>.md).
// Options come from the environment (bench/lib/config.ts): BENCH_CALLS (1,000,000),
// BENCH_RUNS (5), BENCH_INGEST_CALLS, BENCH_CLIENTS, BENCH_BATCH_ITEMS, BENCH_SLOW_MBPS,
// BENCH_SERVER (dist | tsx). Smoke run: BENCH_CALLS=20000 npm run bench
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchOptions, dataPath, DATA_DIR, RESULTS_DIR, type BenchOptions } from './lib/config.js';
import { ensureDataset } from './lib/dataset.js';
import { machineInfo, markdownReport, textTable, type BenchResult } from './lib/report.js';
import { buildServer } from './lib/server.js';
import { agent } from './lib/http.js';
import * as ingest from './ingest.js';
import * as pointRead from './point-read.js';
import * as query from './query.js';
import * as memory from './memory.js';
import * as objects from './objects.js';
import * as startup from './startup.js';
import * as del from './delete.js';
import * as mixed from './mixed.js';
import * as ui from './ui.js';
import * as costs from './costs.js';
import * as callsSort from './calls-sort.js';
import * as engine from './engine.js';
import * as otlp from './otlp.js';
import * as agents from './agents.js';
import * as agentsUi from './agents-ui.js';
import * as completions from './completions.js';
import * as signals from './signals.js';

type Bench = (opts: BenchOptions) => Promise<BenchResult>;
/** In run order; the aliases are what the command line accepts. */
const BENCHES: readonly { name: string; aliases: readonly string[]; run: Bench; seeded: boolean }[] = [
  { name: 'ingest', aliases: ['ingest'], run: ingest.run, seeded: false },
  { name: 'otlp', aliases: ['otlp'], run: otlp.run, seeded: false },
  { name: 'mixed', aliases: ['mixed'], run: mixed.run, seeded: false },
  { name: 'point-read', aliases: ['point-read', 'read'], run: pointRead.run, seeded: true },
  { name: 'query', aliases: ['query'], run: query.run, seeded: true },
  { name: 'memory', aliases: ['memory', 'mem'], run: memory.run, seeded: true },
  { name: 'objects', aliases: ['objects', 'objs'], run: objects.run, seeded: true },
  { name: 'delete', aliases: ['delete'], run: del.run, seeded: true },
  { name: 'startup', aliases: ['startup'], run: startup.run, seeded: true },
  { name: 'costs', aliases: ['costs'], run: costs.run, seeded: true },
  { name: 'calls-sort', aliases: ['calls-sort', 'sort'], run: callsSort.run, seeded: true },
  { name: 'ui', aliases: ['ui'], run: ui.run, seeded: true },
  { name: 'completions', aliases: ['completions', 'models'], run: completions.run, seeded: false },
  { name: 'signals', aliases: ['signals', 'monitors'], run: signals.run, seeded: false },
  // Not part of a plain `npm run bench`: it needs chdb (~550 MB), installed on first use.
  { name: 'engine', aliases: ['engine', 'clickhouse'], run: engine.run, seeded: true },
  // Not part of a plain `npm run bench` either: its own 1,000,000-span dataset (cached), read on
  // SQLite and ClickHouse (chdb); `--engine sqlite|clickhouse` reads one engine only.
  { name: 'agents', aliases: ['agents'], run: agents.run, seeded: false },
  { name: 'agents-ui', aliases: ['agents-ui'], run: agentsUi.run, seeded: false },
];
/** Not run unless named: they need chdb, or a dataset of their own. */
const ON_REQUEST: ReadonlySet<string> = new Set(['engine', 'agents', 'agents-ui']);

async function main(): Promise<number> {
  // `npm run bench --engine clickhouse` reaches here as npm_config_engine (npm's own flag syntax).
  const wanted = process.argv.slice(2).filter((a, i, all) => a !== '--engine' && all[i - 1] !== '--engine');
  const engineFlag = process.env.npm_config_engine ?? process.argv[process.argv.indexOf('--engine') + 1];
  if (process.argv.includes('--engine') || process.env.npm_config_engine) {
    if (engineFlag !== 'clickhouse' && engineFlag !== 'sqlite') {
      process.stderr.write(`--engine takes sqlite or clickhouse, got ${engineFlag}\n`);
      return 2;
    }
    if (engineFlag === 'clickhouse' && wanted.length === 0) wanted.push('engine');
    if (wanted.includes('agents')) process.env.BENCH_AGENT_ENGINES = engineFlag;
  }
  const unknown = wanted.filter((w) => !BENCHES.some((b) => b.aliases.includes(w)));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.aliases.join('|')).join(', ')}\n`,
    );
    return 2;
  }
  const selected = BENCHES.filter((b) =>
    wanted.length === 0 ? !ON_REQUEST.has(b.name) : wanted.some((w) => b.aliases.includes(w)),
  );
  const opts = benchOptions();
  dataPath();
  dataPath('tmp');
  mkdirSync(RESULTS_DIR, { recursive: true });
  const machine = machineInfo();
  const startedAt = new Date();
  const t0 = performance.now();
  process.stderr.write(
    `bench: ${selected.map((b) => b.name).join(', ')}; BENCH_CALLS=${opts.calls} BENCH_RUNS=${opts.runs}; data in ${DATA_DIR}\n`,
  );

  if (opts.server === 'dist') buildServer();
  // Seed (or find) the shared database before any timing starts.
  if (selected.some((b) => b.seeded)) await ensureDataset(opts);

  const results: BenchResult[] = [];
  let failed = false;
  for (const b of selected) {
    process.stderr.write(`bench: --- ${b.name} ---\n`);
    try {
      results.push(await b.run(opts));
    } catch (err) {
      failed = true;
      process.stderr.write(
        `bench: ${b.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      results.push({
        name: b.name,
        rows: [{ figure: `${b.name}: FAILED`, weft: '-', baseline: '-', ratio: '-', target: '-', met: false }],
        notes: [String(err)],
      });
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(`\n${textTable(results.flatMap((r) => r.rows))}`);
  // Only a full run replaces latest.md (which docs/performance.md quotes); a partial run is kept beside it.
  const file = join(
    RESULTS_DIR,
    wanted.length === 0 ? 'latest.md' : `latest-${selected.map((b) => b.name).join('-')}.md`,
  );
  writeFileSync(`${file}.tmp`, markdownReport(results, opts, machine, startedAt, seconds));
  renameSync(`${file}.tmp`, file);
  process.stderr.write(`bench: wrote ${file} (${seconds.toFixed(0)} s)\n`);
  return failed ? 1 : 0;
}

try {
  process.exitCode = await main();
} finally {
  agent.destroy(); // idle keep-alive sockets would otherwise hold the process open
}
