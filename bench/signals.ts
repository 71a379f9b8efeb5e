// Signals (`npm run bench -- signals`): what the scoring worker costs, and what it keeps up with.
// Monitors on `weave.genai.turn_ended` (published through /signals/publish, a preset judge on a
// custom provider) queue one job per finished agent turn; the worker calls the judge, a
// loopback stand-in speaking OpenAI Chat Completions (non-streaming, a `{value, reason}` rating
// with usage), and writes feedback.
//   Ingest: agent spans/s through POST /agents/otel/v1/traces (bench/agents.ts's bodies and
//   driver: BENCH_INGEST_CALLS spans, BENCH_BATCH_ITEMS / 2 a request, BENCH_CLIENTS clients)
//   with three active turn monitors, the judge answering at once, beside the same traffic with
//   no monitor; each run in a fresh data dir, alternating which goes first; the ratio is the
//   median of the per-run ratios. The monitored runs check afterwards that every turn queued
//   one job per monitor and that jobs end done, none failed. Target: >= 0.9x.
//   Scoring throughput: BENCH_SIGNALS_TURNS turns (default 10,000; 50 turns a request, sent by
//   BENCH_CLIENTS clients) against one monitor whose judge answers after 50 ms: the time from
//   the first turn sent until /signals/status counts every job done, against the ideal
//   turns x 50 ms / 4 (the worker's default concurrency, passed explicitly). Target: <= 2x the
//   ideal (a run gives up at 8x and projects from its rate). /signals/status is asked only
//   every 5 s until the judge has answered every turn (it scans the jobs on the server's main
//   thread), then every 20 ms. Meanwhile GET /health every 20 ms from a process of its own
//   (bench/mixed.ts's prober), while the turns are sent and after; its idle baseline is probed
//   on the same server before the turns go. Target: p99 < 50 ms.
//   BENCH_SIGNALS_PARTS=ingest or =scoring runs one part.
// Run alone: node --import tsx bench/signals.ts
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import type { OtlpSpan } from '../src/ingest/otlp/otlp-spans.js';
import { driveExport, otlpBody, prepareBodies } from './agents.js';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, dataPath, type BenchOptions } from './lib/config.js';
import { AGENTS_PROJECT, generateAgentTurns } from './lib/gen-agents.js';
import { postOk } from './lib/http.js';
import type { BenchResult, Row } from './lib/report.js';
import { startWeft, type ServerProc } from './lib/server.js';
import { fmtInt, fmtMs, fmtRate, fmtRatio, median, percentile } from './lib/stats.js';
import { startProber } from './mixed.js';

const PROJECT = AGENTS_PROJECT;
const ENTITY = PROJECT.slice(0, PROJECT.indexOf('/'));
const MODEL = 'custom::standin::judge';
/** The ingest figure's monitors: three rating presets, one scorer each. */
const INGEST_MONITORS = ['response-quality', 'user-satisfaction', 'safe-for-work'] as const;
const THROUGHPUT_MONITOR = 'response-quality';
/** The worker's default concurrency (src/config.ts), passed explicitly so that the ideal holds. */
const CONCURRENCY = 4;
const JUDGE_MS = 50;
const TURNS_PER_REQUEST = 50;
const PROBE_EVERY_MS = 20;
const IDLE_MS = 3000;
const STATUS_EVERY_MS = 250;
/** How often the throughput figure asks /signals/status before the judge has answered every turn. */
const STATUS_SLOW_MS = 5000;
const STATUS_TAIL_MS = 20;
/** A throughput run gives up at this many times the ideal (and projects the rest from its rate). */
const GIVE_UP_AT = 8;
const VERDICT = JSON.stringify({ value: 0.8, reason: 'ok' });
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Judge {
  readonly url: string;
  /** Requests answered so far. */
  readonly asked: () => number;
  /** How long the next answers wait. */
  delayMs: number;
  close(): void;
}

/** The judge: OpenAI Chat Completions, non-streaming, the verdict as the message's content. */
async function startJudge(): Promise<Judge> {
  let asked = 0;
  const judge = {
    url: '',
    asked: () => asked,
    delayMs: 0,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
  const server: Server = createServer((req, res) => {
    req.resume().on('end', () => {
      const answer = () => {
        asked++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-judge',
            object: 'chat.completion',
            created: 1,
            model: 'judge',
            choices: [{ index: 0, message: { role: 'assistant', content: VERDICT }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 400, completion_tokens: 12, total_tokens: 412 },
          }),
        );
      };
      if (judge.delayMs > 0) setTimeout(answer, judge.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  judge.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return judge;
}

/** The judge's provider, model and key; then a turn monitor per preset (none: no monitor). */
async function setUp(weft: ServerProc, judge: Judge, presets: readonly string[]): Promise<void> {
  await postOk(weft.url, '/admin/secrets/set', { entity: ENTITY, name: 'BENCH_KEY', value: 'sk-bench' });
  for (const [object_id, cls, val] of [
    ['standin', 'Provider', { base_url: `${judge.url}/v1`, api_key_name: 'BENCH_KEY' }],
    ['standin-judge', 'ProviderModel', { name: 'judge', provider: 'standin', max_tokens: 100 }],
  ] as const)
    await postOk(weft.url, '/obj/create', { obj: { project_id: PROJECT, object_id, val, builtin_object_class: cls } });
  for (const preset of presets)
    await postOk(weft.url, '/signals/publish', {
      project_id: PROJECT,
      name: preset,
      target: 'agent_turn',
      scorer: { type: 'preset', preset, model: MODEL },
    });
}

interface MonitorHealth {
  readonly monitor_id: string;
  readonly status: string | null;
  readonly last_error: string | null;
  readonly queued: number;
  readonly running: number;
  readonly done: number;
  readonly failed: number;
}
interface Jobs {
  readonly queued: number;
  readonly running: number;
  readonly done: number;
  readonly failed: number;
}
const totalOf = (j: Jobs) => j.queued + j.running + j.done + j.failed;

async function status(weft: ServerProc): Promise<MonitorHealth[]> {
  return (
    JSON.parse((await postOk(weft.url, '/signals/status', { project_id: PROJECT })).body) as {
      monitors: MonitorHealth[];
    }
  ).monitors;
}

const sum = (ms: readonly MonitorHealth[]): Jobs => ({
  queued: ms.reduce((n, m) => n + m.queued, 0),
  running: ms.reduce((n, m) => n + m.running, 0),
  done: ms.reduce((n, m) => n + m.done, 0),
  failed: ms.reduce((n, m) => n + m.failed, 0),
});

const fmtJobs = (j: Jobs) => `${j.queued} queued, ${j.running} running, ${j.done} done, ${j.failed} failed`;

function assertNoFailures(ms: readonly MonitorHealth[]): void {
  const bad = ms.find((m) => m.failed > 0 || m.status === 'error');
  if (bad !== undefined)
    throw new Error(`monitor ${bad.monitor_id}: ${bad.failed} jobs failed; last error: ${bad.last_error}`);
}

/** Polls /signals/status until `ok` holds (throwing on a failed job), for up to `ms`. */
async function until(
  weft: ServerProc,
  what: string,
  ok: (ms: readonly MonitorHealth[]) => boolean,
  ms: number,
): Promise<MonitorHealth[]> {
  const end = performance.now() + ms;
  for (;;) {
    const now = await status(weft);
    assertNoFailures(now);
    if (ok(now)) return now;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}: ${fmtJobs(sum(now))}`);
    await sleep(STATUS_EVERY_MS);
  }
}

interface IngestRun {
  readonly rate: number;
  /** Monitored runs: the jobs right after the last answer, and once every turn's jobs were queued. */
  readonly atEnd?: Jobs;
  readonly queued?: Jobs;
  /** ms from the last answer until every job was queued. */
  readonly queuedAfterMs?: number;
}

/** One ingest run into a fresh data dir, with the monitors of `presets` (none: no monitor). */
async function ingestRun(
  opts: BenchOptions,
  judge: Judge,
  allowed: readonly string[],
  traffic: ReturnType<typeof prepareBodies>,
  presets: readonly string[],
): Promise<IngestRun> {
  const dir = dataPath('tmp', 'signals-ingest');
  rmSync(dir, { recursive: true, force: true });
  const server = await startWeft(opts, dataPath('tmp', 'signals-ingest'), allowed);
  try {
    await setUp(server, judge, presets);
    const ms = await driveExport(server, '/agents/otel/v1/traces', traffic.bodies, opts.clients);
    const t1 = performance.now();
    const rate = traffic.spans / (ms / 1000);
    if (presets.length === 0) {
      const jobs = await status(server);
      if (jobs.length > 0) throw new Error(`no monitor, yet jobs: ${fmtJobs(sum(jobs))}`);
      return { rate };
    }
    const first = await status(server);
    assertNoFailures(first);
    // Every turn queues one job per monitor (the trigger runs after the answer), and they end done.
    const all = await until(
      server,
      `${traffic.turns} jobs per monitor`,
      (ms) => ms.length === presets.length && ms.every((m) => totalOf(m) === traffic.turns),
      120_000,
    );
    const queuedAfterMs = performance.now() - t1;
    await until(server, 'a job done per monitor', (ms) => ms.every((m) => m.done > 0), 60_000);
    return { rate, atEnd: sum(first), queued: sum(all), queuedAfterMs };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function ingest(opts: BenchOptions, judge: Judge, allowed: readonly string[], rows: Row[], notes: string[]) {
  const traffic = prepareBodies(opts);
  judge.delayMs = 0;
  const none: number[] = [];
  const monitored: IngestRun[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const order = i % 2 === 0 ? ([false, true] as const) : ([true, false] as const);
    for (const withMonitors of order) {
      const r = await ingestRun(opts, judge, allowed, traffic, withMonitors ? INGEST_MONITORS : []);
      if (withMonitors) monitored.push(r);
      else none.push(r.rate);
    }
    const m = monitored[i]!;
    process.stderr.write(
      `bench: signals ingest run ${i + 1}/${opts.runs}: ${fmtRate(m.rate, 'spans')} with ${INGEST_MONITORS.length} monitors vs ${fmtRate(none[i]!, 'spans')} without (${(m.rate / none[i]!).toFixed(2)}x); jobs at the last answer: ${fmtJobs(m.atEnd!)}; all ${totalOf(m.queued!)} queued ${(m.queuedAfterMs! / 1000).toFixed(1)} s after (load ${loadavg()})\n`,
    );
  }
  const ratio = median(monitored.map((m, i) => m.rate / none[i]!));
  rows.push({
    figure: `Agent span ingest /agents/otel/v1/traces with ${INGEST_MONITORS.length} active turn monitors (judge answering at once; ${opts.clients} clients, ${Math.floor(opts.batchItems / 2)} spans/request)`,
    weft: fmtRate(median(monitored.map((m) => m.rate)), 'spans'),
    baseline: `${fmtRate(median(none), 'spans')} (no monitor)`,
    ratio: fmtRatio(ratio),
    target: '>= 0.90x',
    met: ratio >= 0.9,
  });
  notes.push(
    `Ingest: ${traffic.spans} spans (${traffic.turns} turns) per run in ${traffic.bodies.length} requests (${(traffic.bytes / 1048576).toFixed(0)} MB of protobuf); monitors ${INGEST_MONITORS.join(', ')} (presets on ${MODEL}). Per run (spans/s): with monitors ${monitored.map((m) => m.rate.toFixed(0)).join('/')}, without ${none.map((x) => x.toFixed(0)).join('/')}; ratios ${monitored.map((m, i) => (m.rate / none[i]!).toFixed(2)).join('/')}.`,
    `Ingest with monitors: each run queued ${monitored.map((m) => totalOf(m.queued!)).join('/')} jobs (${INGEST_MONITORS.length} x ${traffic.turns} turns expected), all of them ${monitored.map((m) => (m.queuedAfterMs! / 1000).toFixed(1)).join('/')} s after the last answer; at the last answer ${monitored.map((m) => totalOf(m.atEnd!)).join('/')} were queued and ${monitored.map((m) => m.atEnd!.done).join('/')} done (${monitored.map((m) => ((m.atEnd!.done / traffic.spans) * m.rate).toFixed(0)).join('/')} jobs/s scored during the ingest), none failed.`,
  );
}

/** The first `n` generated turns as export bodies of TURNS_PER_REQUEST turns each. */
function turnBodies(opts: BenchOptions, n: number): { bodies: Buffer[]; spans: number; bytes: number } {
  const bodies: Buffer[] = [];
  let batch: OtlpSpan[] = [];
  let turns = 0;
  let spans = 0;
  for (const t of generateAgentTurns({ seed: `${opts.seed}:signals`, spans: n * 5 })) {
    batch.push(...t.spans);
    spans += t.spans.length;
    if (++turns % TURNS_PER_REQUEST === 0 || turns === n) {
      bodies.push(otlpBody(batch));
      batch = [];
    }
    if (turns === n) break;
  }
  if (turns < n) throw new Error(`generated ${turns} turns, wanted ${n}`);
  return { bodies, spans, bytes: bodies.reduce((a, b) => a + b.length, 0) };
}

/**
 * Waits until the monitor's `n` jobs are done, or `ms` have passed; its jobs then. /signals/status
 * reads the queue on the server's main thread (a scan of the project's jobs: ~17 ms at 10,000
 * jobs), which would show in the /health figure if it were polled throughout: it is asked every
 * STATUS_SLOW_MS (failures end the run) until the judge has answered `n` times, then every
 * STATUS_TAIL_MS.
 */
async function allDone(weft: ServerProc, judge: Judge, asked0: number, n: number, ms: number): Promise<Jobs> {
  const end = performance.now() + ms;
  let polled = performance.now();
  for (;;) {
    const answered = judge.asked() - asked0 >= n;
    if (answered || performance.now() - polled >= STATUS_SLOW_MS || performance.now() > end) {
      polled = performance.now();
      const now = await status(weft);
      assertNoFailures(now);
      const jobs = sum(now);
      if (jobs.done === n || performance.now() > end) return jobs;
    }
    await sleep(answered ? STATUS_TAIL_MS : 50);
  }
}

interface ScoringRun {
  /** ms from the first turn sent until every job was done (or until the run gave up). */
  readonly ms: number;
  /** Jobs done by then: all of them unless the run gave up. */
  readonly done: number;
  readonly sendMs: number;
  /** /health latencies while the turns were sent, and after (scoring alone). */
  readonly sending: number[];
  readonly after: number[];
  readonly idle: number[];
  readonly asked: number;
}
const healthOf = (r: ScoringRun) => [...r.sending, ...r.after];

async function scoringRun(
  opts: BenchOptions,
  judge: Judge,
  allowed: readonly string[],
  traffic: ReturnType<typeof turnBodies>,
  n: number,
): Promise<ScoringRun> {
  const dir = dataPath('tmp', 'signals-scoring');
  rmSync(dir, { recursive: true, force: true });
  const server = await startWeft(opts, dataPath('tmp', 'signals-scoring'), [
    ...allowed,
    '--signals-concurrency',
    String(CONCURRENCY),
  ]);
  const probers: ReturnType<typeof startProber>[] = [];
  const probe = () => probers[probers.push(startProber(server.url, PROBE_EVERY_MS)) - 1]!;
  try {
    await setUp(server, judge, [THROUGHPUT_MONITOR]);
    judge.delayMs = JUDGE_MS;
    const idleProber = probe();
    await sleep(IDLE_MS);
    const idle = await idleProber.stop();
    const asked0 = judge.asked();
    const sendingProber = probe();
    const t0 = performance.now();
    const sendMs = await driveExport(server, '/agents/otel/v1/traces', traffic.bodies, opts.clients);
    const sending = await sendingProber.stop();
    const afterProber = probe();
    const last = await allDone(server, judge, asked0, n, GIVE_UP_AT * ((n * JUDGE_MS) / CONCURRENCY) - sendMs);
    const ms = performance.now() - t0;
    const after = await afterProber.stop();
    return { ms, done: last.done, sendMs, sending, after, idle, asked: judge.asked() - asked0 };
  } finally {
    // A prober stopped twice (after a failure) just answers its latencies again.
    await Promise.allSettled(probers.map((p) => p.stop()));
    judge.delayMs = 0;
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function scoring(opts: BenchOptions, judge: Judge, allowed: readonly string[], rows: Row[], notes: string[]) {
  const raw = process.env.BENCH_SIGNALS_TURNS;
  const n = raw === undefined || raw === '' ? 10_000 : Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_SIGNALS_TURNS must be an integer >= 1, got "${raw}"`);
  const traffic = turnBodies(opts, n);
  const ideal = (n * JUDGE_MS) / CONCURRENCY;
  const runs: ScoringRun[] = [];
  const q = (xs: readonly number[], p: number) => fmtMs(percentile(xs, p));
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  /** A run that gave up counts as the time its rate would have taken for all n. */
  const took = (r: ScoringRun) => (r.done === n ? r.ms : (r.ms * n) / Math.max(1, r.done));
  const tookText = (r: ScoringRun) =>
    r.done === n ? secs(r.ms) : `${secs(took(r))} (projected: ${r.done} done after ${secs(r.ms)})`;
  for (let i = 0; i < opts.runs; i++) {
    const r = await scoringRun(opts, judge, allowed, traffic, n);
    runs.push(r);
    process.stderr.write(
      `bench: signals scoring run ${i + 1}/${opts.runs}: ${n} turns scored in ${tookText(r)} (sent in ${(r.sendMs / 1000).toFixed(1)} s; ideal ${(ideal / 1000).toFixed(1)} s: ${(took(r) / ideal).toFixed(2)}x); /health p50 ${q(healthOf(r), 50)}, p99 ${q(healthOf(r), 99)}, max ${fmtMs(Math.max(...healthOf(r)))}; while sending p99 ${q(r.sending, 99)}, after p99 ${q(r.after, 99)}; idle p99 ${q(r.idle, 99)} (load ${loadavg()})\n`,
    );
  }
  const ratio = median(runs.map((r) => took(r) / ideal));
  const gaveUp = runs.filter((r) => r.done < n).length;
  const at = (pick: (r: ScoringRun) => number[], p: number) => median(runs.map((r) => percentile(pick(r), p)));
  const p99 = at(healthOf, 99);
  const afterP99 = at((r) => r.after, 99);
  const idleP99 = at((r) => r.idle, 99);
  const perRun = (pick: (r: ScoringRun) => number[], p: number) =>
    runs.map((r) => percentile(pick(r), p).toFixed(p === 50 ? 2 : 1)).join('/');
  rows.push(
    {
      figure: `Scoring throughput: ${fmtInt(n)} turns, 1 turn monitor, judge answering after ${JUDGE_MS} ms, concurrency ${CONCURRENCY} (first turn sent -> all done)`,
      weft: `${secs(median(runs.map(took)))} (${fmtRate(n / (median(runs.map(took)) / 1000), 'jobs')})${gaveUp > 0 ? `, ${gaveUp} of ${runs.length} runs projected` : ''}`,
      baseline: `${secs(ideal)} (ideal: turns x ${JUDGE_MS} ms / ${CONCURRENCY})`,
      ratio: fmtRatio(ratio),
      target: '<= 2x the ideal',
      met: ratio <= 2,
    },
    {
      figure: `GET /health p99 while ${fmtInt(n)} turns are sent and scored (every ${PROBE_EVERY_MS} ms; p50 ${fmtMs(at(healthOf, 50))})`,
      weft: fmtMs(p99),
      baseline: `${fmtMs(idleP99)} (idle, p50 ${fmtMs(at((r) => r.idle, 50))})`,
      ratio: fmtRatio(p99 / idleP99),
      target: '< 50 ms',
      met: p99 < 50,
    },
    {
      figure: `GET /health p99 after the last turn was sent (scoring alone; p50 ${fmtMs(at((r) => r.after, 50))})`,
      weft: fmtMs(afterP99),
      baseline: `${fmtMs(idleP99)} (idle)`,
      ratio: fmtRatio(afterP99 / idleP99),
      target: '(diagnostic)',
      met: null,
    },
  );
  notes.push(
    `Scoring: ${n} turns (${traffic.spans} spans) in ${traffic.bodies.length} requests of ${TURNS_PER_REQUEST} turns (${(traffic.bytes / 1048576).toFixed(0)} MB of protobuf), ${opts.clients} clients. Per run: all done after ${runs.map(tookText).join('/')} (ratios to the ideal ${runs.map((r) => (took(r) / ideal).toFixed(2)).join('/')}; a run gives up at ${GIVE_UP_AT}x), the turns sent in ${runs.map((r) => secs(r.sendMs)).join('/')}; the judge was asked ${runs.map((r) => r.asked).join('/')} times.`,
    `/health per run (ms), whole window: p50 ${perRun(healthOf, 50)}, p99 ${perRun(healthOf, 99)}, max ${runs.map((r) => Math.max(...healthOf(r)).toFixed(1)).join('/')} (probes ${runs.map((r) => healthOf(r).length).join('/')}); while the turns were sent: p50 ${perRun((r) => r.sending, 50)}, p99 ${perRun((r) => r.sending, 99)}; after: p50 ${perRun((r) => r.after, 50)}, p99 ${perRun((r) => r.after, 99)}; idle: p50 ${perRun((r) => r.idle, 50)}, p99 ${perRun((r) => r.idle, 99)}.`,
  );
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const judge = await startJudge();
  const allowed = ['--outbound-allowed-hosts', new URL(judge.url).host];
  try {
    const parts = (process.env.BENCH_SIGNALS_PARTS ?? 'ingest,scoring').split(',');
    if (parts.includes('ingest')) await ingest(opts, judge, allowed, rows, notes);
    if (parts.includes('scoring')) await scoring(opts, judge, allowed, rows, notes);
  } finally {
    judge.close();
  }
  return { name: 'signals', rows, notes };
}

if (isMain(import.meta.url)) await runAlone(run);
