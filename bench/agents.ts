// Agents (`npm run bench -- agents`): GenAI agent spans (bench/lib/gen-agents.ts).
//   Ingest: spans/s through POST /agents/otel/v1/traces beside POST /otel/v1/traces (the calls'
//   OTLP route) on the same protobuf bodies (BENCH_INGEST_CALLS spans, BENCH_BATCH_ITEMS / 2 a
//   request, BENCH_CLIENTS clients), each run into fresh data dirs. Target: >= 0.8x.
//   Reads on the BENCH_AGENT_SPANS-span dataset (bench/lib/agent-dataset.ts), on SQLite and on
//   ClickHouse (chdb in the server's process, as bench/engine.ts runs it; BENCH_AGENT_ENGINES or
//   `--engine` picks one), requests interleaved between the engines run by run, one unmeasured
//   round first. Targets: /agents/query < 50 ms, a conversations page < 100 ms, the latest page
//   (50 turns, the most a page holds) of a 200-turn conversation < 300 ms, /agents/search p50
//   < 100 ms, /agents/spans/stats over 30 days < 1 s. The baseline of each engine's figure is
//   the other engine's, measured in the same rounds.
//   BENCH_AGENT_PARTS=ingest runs the ingest alone (no 1M-span dataset), =reads the reads alone.
// Run alone: node --import tsx bench/agents.ts
import { readFileSync, rmSync } from 'node:fs';
import { ExportTraceServiceRequest } from '../src/ingest/otlp/otlp-proto.js';
import type { OtlpSpan } from '../src/ingest/otlp/otlp-spans.js';
import { ensureChdb } from '../scripts/ensure-chdb.mjs';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, dataPath, type BenchOptions } from './lib/config.js';
import { ensureAgentClickHouse, ensureAgentDataset } from './lib/agent-dataset.js';
import {
  AGENT_DAYS,
  AGENT_END_MS,
  AGENTS_PROJECT,
  generateAgentTurns,
  longConversationId,
  otlpMessage,
  PHRASE,
  RARE_WORDS,
} from './lib/gen-agents.js';
import { postBody, postOk } from './lib/http.js';
import type { BenchResult, Row } from './lib/report.js';
import { startWeft, type ServerProc } from './lib/server.js';
import { fmtMs, fmtRate, fmtRatio, median, percentile } from './lib/stats.js';

type Engine = 'sqlite' | 'clickhouse';
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** One protobuf export body (ExportTraceServiceRequest) of these spans. */
export const otlpBody = (spans: readonly OtlpSpan[]): Buffer =>
  Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(otlpMessage(spans))).finish());

/**
 * The ingest spans as protobuf export bodies, encoded before anything is timed; `turns` counts
 * their root spans (each closes a turn).
 */
export function prepareBodies(opts: BenchOptions): { bodies: Buffer[]; spans: number; turns: number; bytes: number } {
  const turns = [...generateAgentTurns({ seed: `${opts.seed}:ingest`, spans: opts.ingestCalls })];
  const spans = turns.flatMap((t) => t.spans);
  const per = Math.max(1, Math.floor(opts.batchItems / 2));
  const bodies: Buffer[] = [];
  for (let i = 0; i < spans.length; i += per) bodies.push(otlpBody(spans.slice(i, i + per)));
  return { bodies, spans: spans.length, turns: turns.length, bytes: bodies.reduce((n, b) => n + b.length, 0) };
}

/**
 * Sends every body to `path` (protobuf, project AGENTS_PROJECT) from `clients` clients, one
 * request in flight each, throwing unless each answers 200 with an empty body; the ms it took.
 */
export async function driveExport(
  server: ServerProc,
  path: string,
  bodies: readonly Buffer[],
  clients: number,
): Promise<number> {
  let next = 0;
  const client = async () => {
    for (let i = next++; i < bodies.length; i = next++) {
      const r = await postBody(server.url, path, bodies[i]!, {
        'content-type': 'application/x-protobuf',
        project_id: AGENTS_PROJECT,
      });
      if (r.status !== 200 || r.body.length > 0) throw new Error(`${path} -> ${r.status}: ${r.body.slice(0, 300)}`);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  return performance.now() - t0;
}

/**
 * Spans/s of one export run into a fresh data dir (its span count checked when `check`), and
 * on the agents route the seconds from the last answer until a search answers (it first
 * indexes the messages still waiting: span-message-backlog.ts).
 */
async function ingestRun(
  opts: BenchOptions,
  path: string,
  traffic: { bodies: Buffer[]; spans: number },
  check: boolean,
  engine: Engine,
): Promise<{ rate: number; searchable: number }> {
  const dir = dataPath('tmp', 'agents-ingest');
  rmSync(dir, { recursive: true, force: true });
  const flags = engine === 'clickhouse' ? ['--engine', 'clickhouse', '--clickhouse-url', `chdb:${dir}/chdb`] : [];
  const server = await startWeft(opts, dataPath('tmp', 'agents-ingest'), flags);
  try {
    const ms = await driveExport(server, path, traffic.bodies, opts.clients);
    const t1 = performance.now();
    const rate = traffic.spans / (ms / 1000);
    let searchable = 0;
    if (path.startsWith('/agents')) {
      await postOk(server.url, '/agents/search', { project_id: AGENTS_PROJECT, query: 'zanzibar', limit: 1 });
      searchable = (performance.now() - t1) / 1000;
    }
    if (check) {
      const count = path.startsWith('/agents')
        ? (JSON.parse((await postOk(server.url, '/agents/spans/query', { project_id: AGENTS_PROJECT, limit: 0 })).body)
            .total_count as number)
        : (JSON.parse((await postOk(server.url, '/calls/query_stats', { project_id: AGENTS_PROJECT })).body)
            .count as number);
      if (count !== traffic.spans) throw new Error(`${path}: exported ${traffic.spans} spans, stored ${count}`);
    }
    return { rate, searchable };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ingest on each engine: the same bodies to both routes, alternating which goes first. */
async function ingest(opts: BenchOptions, rows: Row[], notes: string[]) {
  const traffic = prepareBodies(opts);
  if (opts.agentEngines.includes('clickhouse')) ensureChdb();
  for (const engine of opts.agentEngines) await ingestOn(engine, opts, traffic, rows, notes);
}

async function ingestOn(
  engine: Engine,
  opts: BenchOptions,
  traffic: ReturnType<typeof prepareBodies>,
  rows: Row[],
  notes: string[],
) {
  const name = engine === 'sqlite' ? 'SQLite' : 'ClickHouse';
  const calls: number[] = [];
  const agents: number[] = [];
  const searchable: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const order = i % 2 === 0 ? (['calls', 'agents'] as const) : (['agents', 'calls'] as const);
    for (const which of order) {
      const path = which === 'agents' ? '/agents/otel/v1/traces' : '/otel/v1/traces';
      const run = await ingestRun(opts, path, traffic, i < 2, engine);
      (which === 'agents' ? agents : calls).push(run.rate);
      if (which === 'agents') searchable.push(run.searchable);
    }
    process.stderr.write(
      `bench: agents ingest (${name}) run ${i + 1}/${opts.runs}: ${fmtRate(agents[i]!, 'spans')} vs /otel/v1/traces ${fmtRate(calls[i]!, 'spans')}; searchable ${searchable[i]!.toFixed(2)} s after (load ${loadavg()})\n`,
    );
  }
  const ingestRatio = median(agents.map((a, i) => a / calls[i]!));
  rows.push({
    figure: `Agent span ingest /agents/otel/v1/traces, protobuf (${opts.clients} clients, ${Math.floor(opts.batchItems / 2)} spans/request) [${name}]`,
    weft: fmtRate(median(agents), 'spans'),
    baseline: `${fmtRate(median(calls), 'spans')} (/otel/v1/traces, same bodies)`,
    ratio: fmtRatio(ingestRatio),
    target: '>= 0.80x',
    met: ingestRatio >= 0.8,
  });
  const through = agents.map((a, i) => traffic.spans / (traffic.spans / a + searchable[i]!));
  notes.push(
    `Ingest (${name}): every message searchable ${searchable.map((x) => x.toFixed(2)).join('/')} s after the last answer; counting that time, ${through.map((x) => x.toFixed(0)).join('/')} spans/s (median ${fmtRatio(median(through.map((t, i) => t / calls[i]!)))} of the calls route).`,
  );
  notes.push(
    `Ingest (${name}): ${traffic.spans} spans per run in ${traffic.bodies.length} requests (${(traffic.bytes / 1048576).toFixed(0)} MB of protobuf). Per run: agents ${agents.map((x) => x.toFixed(0)).join('/')}, calls route ${calls.map((x) => x.toFixed(0)).join('/')} spans/s.`,
  );
}

interface Read {
  readonly key: string;
  readonly label: string;
  readonly path: string;
  /** Sent in turn; the figure is the median of their latencies (one body: that request's time). */
  readonly bodies: readonly unknown[];
  readonly target: number;
}

/** The busiest agent (gen-agents.ts weighs them): a tenth of the traces. */
const FILTER_AGENT = 'agent-00';

function reads(project_id: string): Read[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  const window = { start: iso(AGENT_END_MS - AGENT_DAYS * 86_400_000), end: iso(AGENT_END_MS) };
  const metrics = [
    {
      alias: 'turns',
      value_type: 'boolean',
      value: { source: 'derived', key: 'is_invocation' },
      aggregations: ['count_true'],
    },
    {
      alias: 'errors',
      value_type: 'boolean',
      value: { source: 'derived', key: 'is_error' },
      aggregations: ['count_true'],
    },
    { alias: 'tokens', value_type: 'number', value: { source: 'derived', key: 'total_tokens' }, aggregations: ['sum'] },
    {
      alias: 'latency',
      value_type: 'number',
      value: { source: 'derived', key: 'duration_ms' },
      aggregations: ['avg'],
      percentiles: [95],
    },
  ];
  const stats = { project_id, ...window, granularity: 86_400, timezone: 'UTC', metrics };
  const searches = ['invoice', 'customer refund', ...RARE_WORDS, `"${PHRASE}"`];
  return [
    {
      key: 'agents',
      label: '/agents/query, include_costs',
      path: '/agents/query',
      bodies: [{ project_id, include_costs: true }],
      target: 50,
    },
    {
      key: 'conversations',
      label: 'Conversations page: /agents/spans/query group_by conversation_id, include_costs, limit 50',
      path: '/agents/spans/query',
      bodies: [
        {
          project_id,
          group_by: [{ source: 'field', key: 'conversation_id', alias: 'conversation_id' }],
          include_costs: true,
          limit: 50,
        },
      ],
      target: 100,
    },
    {
      key: 'conversations-agent',
      label: `Conversations page filtered by agent (${FILTER_AGENT}): its conversations, as the Agents view picks them, limit 50`,
      path: '/agents/spans/query',
      bodies: [
        {
          project_id,
          query: {
            $expr: {
              $and: [
                { $eq: [{ $getField: 'owner_agent_name' }, { $literal: FILTER_AGENT }] },
                { $not: [{ $eq: [{ $getField: 'conversation_id' }, { $literal: null }] }] },
              ],
            },
          },
          group_by: [{ source: 'field', key: 'conversation_id', alias: 'conversation_id' }],
          limit: 50,
        },
      ],
      target: 100,
    },
    {
      key: 'chat',
      label: '/agents/conversations/chat, 200-turn conversation, limit 50 (its latest 50 turns: the largest page)',
      path: '/agents/conversations/chat',
      bodies: [{ project_id, conversation_id: longConversationId(200), limit: 50 }],
      target: 300,
    },
    {
      key: 'search',
      label: `/agents/search p50 (${searches.join(', ')})`,
      path: '/agents/search',
      bodies: searches.map((query) => ({ project_id, query })),
      target: 100,
    },
    {
      key: 'stats',
      label: '/agents/spans/stats, 30 daily buckets, 5 outputs incl. p95',
      path: '/agents/spans/stats',
      bodies: [stats],
      target: 1000,
    },
    {
      key: 'stats-agent',
      label: '/agents/spans/stats, the same grouped by agent (owner_agent_name)',
      path: '/agents/spans/stats',
      bodies: [{ ...stats, group_by: [{ source: 'field', key: 'owner_agent_name', alias: 'agent' }] }],
      target: 1000,
    },
  ];
}

/** The median latency of one round of a read (each body once), and the reply sizes. */
async function readRound(server: ServerProc, r: Read): Promise<{ ms: number; bytes: number[] }> {
  const ms: number[] = [];
  const bytes: number[] = [];
  for (const body of r.bodies) {
    const reply = await postOk(server.url, r.path, body);
    ms.push(reply.ms);
    bytes.push(reply.body.length);
  }
  return { ms: percentile(ms, 50), bytes };
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const engines = opts.agentEngines;
  const rows: Row[] = [];
  const notes: string[] = [];
  const parts = (process.env.BENCH_AGENT_PARTS ?? 'ingest,reads').split(',');
  if (parts.includes('ingest')) await ingest(opts, rows, notes);
  if (!parts.includes('reads')) return { name: 'agents', rows, notes };

  // Reads on the big dataset.
  const { dir, manifest } = await ensureAgentDataset(opts);
  if (engines.includes('clickhouse')) ensureChdb();
  const ch = engines.includes('clickhouse') ? ensureAgentClickHouse(opts) : null;
  const specs = reads(manifest.project);
  const times = new Map<string, number[]>();
  const sizes = new Map<string, number[]>();
  const servers: Partial<Record<Engine, ServerProc>> = {};
  const loads: string[] = [loadavg()];
  try {
    for (const e of engines)
      servers[e] =
        e === 'sqlite'
          ? await startWeft(opts, dir)
          : await startWeft(opts, dataPath('tmp', 'agents-unused'), [
              '--engine',
              'clickhouse',
              '--clickhouse-url',
              `chdb:${ch!.chdb}`,
            ]);
    for (let i = -1; i < opts.runs; i++) {
      for (const r of specs)
        for (const e of engines) {
          const { ms, bytes } = await readRound(servers[e]!, r);
          if (i < 0) sizes.set(`${e}:${r.key}`, bytes);
          else times.set(`${e}:${r.key}`, [...(times.get(`${e}:${r.key}`) ?? []), ms]);
        }
      if (i >= 0) {
        loads.push(loadavg());
        process.stderr.write(
          `bench: agents reads run ${i + 1}/${opts.runs}: ${specs.map((r) => `${r.key} ${engines.map((e) => fmtMs(times.get(`${e}:${r.key}`)!.at(-1)!)).join(' / ')}`).join(', ')} (load ${loadavg()})\n`,
        );
      }
    }
  } finally {
    for (const s of Object.values(servers)) await s.stop();
  }
  for (const r of specs)
    for (const e of engines) {
      const mine = times.get(`${e}:${r.key}`)!;
      const other = engines.find((x) => x !== e);
      const theirs = other === undefined ? null : times.get(`${other}:${r.key}`)!;
      const m = median(mine);
      rows.push({
        figure: `${r.label} [${e === 'sqlite' ? 'SQLite' : 'ClickHouse'}]`,
        weft: fmtMs(m),
        baseline: theirs === null ? '-' : `${fmtMs(median(theirs))} (${other === 'sqlite' ? 'SQLite' : 'ClickHouse'})`,
        ratio: theirs === null ? '-' : fmtRatio(median(mine.map((x, i) => x / theirs[i]!))),
        target: `< ${r.target} ms`,
        met: m < r.target,
      });
    }
  notes.push(
    `Dataset: ${manifest.spans} spans, ${manifest.turns} turns, ${manifest.conversations} conversations, 50 agents x 4 versions, over ${AGENT_DAYS} days; long conversations ${Object.entries(
      manifest.long,
    )
      .map(([id, n]) => `${id} (${n} turns)`)
      .join(
        ', ',
      )}. SQLite file ${(manifest.dbBytes / 2 ** 30).toFixed(2)} GiB, seeded in ${manifest.seedSeconds.toFixed(0)} s${ch === null ? '' : `; seeding ClickHouse took ${ch.seedSeconds.toFixed(0)} s${ch.cached ? ' (cached from an earlier run)' : ''}`}.`,
    `Per run (ms), ${engines.join(' vs ')}: ${specs
      .map(
        (r) =>
          `${r.key} ${engines
            .map((e) =>
              times
                .get(`${e}:${r.key}`)!
                .map((v) => v.toFixed(0))
                .join('/'),
            )
            .join(' vs ')}`,
      )
      .join('; ')}.`,
    `Reply sizes (bytes, ${engines.join(' / ')}): ${specs.map((r) => `${r.key} ${engines.map((e) => sizes.get(`${e}:${r.key}`)!.join('+')).join(' / ')}`).join('; ')}.`,
    `Load average (1, 5, 15 min) before the reads and after each run: ${loads.join('; ')} (2 cores, shared).`,
  );
  return { name: 'agents', rows, notes };
}

if (isMain(import.meta.url)) await runAlone(run);
