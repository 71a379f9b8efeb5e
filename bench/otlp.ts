// OTLP ingest: spans/s through POST /otel/v1/traces (protobuf, 4 clients, one request in
// flight each), beside /call/upsert_batch calls/s of the same run on the same calls. The
// spans carry what the SDK batches carry (inputs and output as OpenInference input.value /
// output.value JSON, token counts as llm.token_count.*, errors as an ERROR status), as many
// spans per request as calls per upsert batch. Runs alternate, each into a fresh data dir.
// Target: spans/s >= 0.8x calls/s.
// Run alone: node --import tsx bench/otlp.ts
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { ExportTraceServiceRequest } from '../src/ingest/otlp/otlp-proto.js';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, dataPath, type BenchOptions } from './lib/config.js';
import { generateTraces, PROJECT, type BatchItem } from './lib/gen-calls.js';
import { postBody, postOk } from './lib/http.js';
import type { BenchResult } from './lib/report.js';
import { cpuSeconds, startWeft, writtenBytes, type ServerProc } from './lib/server.js';
import { fmtMB, fmtMs, fmtRate, fmtRatio, median, percentile } from './lib/stats.js';
import { driveIngest, prepareTraffic } from './ingest.js';

const id = (s: string, bytes: number) => createHash('sha1').update(s).digest().subarray(0, bytes);
const nanos = (iso: string) => (BigInt(Date.parse(iso)) * 1_000_000n).toString();
const kv = (key: string, value: string | number) => ({
  key,
  value: typeof value === 'string' ? { stringValue: value } : { intValue: value },
});

interface OtlpTraffic {
  readonly bodies: Buffer[];
  readonly spans: number;
  readonly bytes: number;
}

/** The ingest bench's calls as spans, encoded before anything is timed. */
export function prepareSpans(opts: BenchOptions): OtlpTraffic {
  const items: BatchItem[] = [];
  for (const t of generateTraces({ seed: `${opts.seed}:ingest`, calls: opts.ingestCalls, bigTraceCalls: 0 }))
    items.push(...t.items);
  const ends = new Map(items.flatMap((it) => (it.mode === 'end' ? [[it.req.end.id, it.req.end] as const] : [])));
  const spans = items.flatMap((it) => {
    if (it.mode !== 'start') return [];
    const s = it.req.start;
    const e = ends.get(s.id!)!;
    const attributes = [
      kv('input.value', JSON.stringify(s.inputs)),
      kv('input.mime_type', 'application/json'),
      kv('output.value', JSON.stringify(e.output ?? null)),
      kv('output.mime_type', 'application/json'),
    ];
    const usage = Object.entries((e.summary as { usage?: Record<string, Record<string, number>> }).usage ?? {})[0];
    if (usage) {
      const [model, u] = usage;
      attributes.push(
        kv('llm.model_name', model),
        kv('llm.token_count.prompt', u.prompt_tokens ?? 0),
        kv('llm.token_count.completion', u.completion_tokens ?? 0),
      );
    }
    return [
      {
        traceId: id(s.trace_id!, 16),
        spanId: id(s.id!, 8),
        ...(s.parent_id ? { parentSpanId: id(s.parent_id, 8) } : {}),
        name: s.op_name,
        kind: 1,
        startTimeUnixNano: nanos(s.started_at),
        endTimeUnixNano: nanos(e.ended_at),
        attributes,
        status: e.exception ? { code: 2, message: e.exception } : { code: 0 },
      },
    ];
  });
  const perRequest = Math.max(1, Math.floor(opts.batchItems / 2));
  const bodies: Buffer[] = [];
  for (let i = 0; i < spans.length; i += perRequest) {
    const message = {
      resourceSpans: [
        {
          resource: { attributes: [kv('service.name', 'bench')] },
          scopeSpans: [{ scope: { name: 'bench' }, spans: spans.slice(i, i + perRequest) }],
        },
      ],
    };
    bodies.push(Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(message)).finish()));
  }
  return { bodies, spans: spans.length, bytes: bodies.reduce((n, b) => n + b.length, 0) };
}

/** Spans/s, each export's latency, and the server's CPU seconds (all threads) per span. */
async function driveOtlp(
  server: ServerProc,
  traffic: OtlpTraffic,
  clients: number,
  check: boolean,
): Promise<{ rate: number; ms: number[]; cpuPerItem: number; writtenPerItem: number }> {
  const ms: number[] = [];
  let next = 0;
  const client = async () => {
    for (let i = next++; i < traffic.bodies.length; i = next++) {
      const r = await postBody(server.url, '/otel/v1/traces', traffic.bodies[i]!, {
        'content-type': 'application/x-protobuf',
        project_id: PROJECT,
      });
      if (r.status !== 200 || r.body.length > 0)
        throw new Error(`/otel/v1/traces -> ${r.status}: ${r.body.slice(0, 300)}`);
      ms.push(r.ms);
    }
  };
  const cpu0 = cpuSeconds(server.pid);
  const written0 = writtenBytes(server.pid);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  const s = (performance.now() - t0) / 1000;
  const cpuPerItem = (cpuSeconds(server.pid) - cpu0) / traffic.spans;
  const writtenPerItem = (writtenBytes(server.pid) - written0) / traffic.spans;
  if (check) {
    const stats = JSON.parse((await postOk(server.url, '/calls/query_stats', { project_id: PROJECT })).body) as {
      count: number;
    };
    if (stats.count !== traffic.spans)
      throw new Error(`exported ${traffic.spans} spans but query_stats counts ${stats.count}`);
  }
  return { rate: traffic.spans / s, ms, cpuPerItem, writtenPerItem };
}

async function fresh<T>(opts: BenchOptions, name: string, drive: (server: ServerProc) => Promise<T>): Promise<T> {
  const dir = dataPath('tmp', name);
  rmSync(dir, { recursive: true, force: true });
  const server = await startWeft(opts, dir);
  try {
    return await drive(server);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const calls = prepareTraffic(opts);
  const spans = prepareSpans(opts);
  const upserts: number[] = [];
  const exports: number[] = [];
  const exportMs: number[] = [];
  const cpuUpsert: number[] = [];
  const cpuExport: number[] = [];
  const writtenUpsert: number[] = [];
  const writtenExport: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const u = await fresh(opts, 'otlp-upsert', (s) => driveIngest(s, calls, opts.clients, i === 0));
    upserts.push(u.rate);
    cpuUpsert.push(u.cpu / u.rate);
    writtenUpsert.push(u.writtenPerCall);
    const o = await fresh(opts, 'otlp-export', (s) => driveOtlp(s, spans, opts.clients, i === 0));
    exports.push(o.rate);
    cpuExport.push(o.cpuPerItem);
    writtenExport.push(o.writtenPerItem);
    exportMs.push(...o.ms);
    process.stderr.write(
      `bench: otlp run ${i + 1}/${opts.runs}: ${fmtRate(o.rate, 'spans')}, upsert_batch ${fmtRate(upserts[i]!, 'calls')}\n`,
    );
  }
  const ratio = median(exports.map((x, i) => x / upserts[i]!));
  return {
    name: 'otlp',
    rows: [
      {
        figure: `OTLP ingest /otel/v1/traces, protobuf (${opts.clients} clients, ${Math.floor(opts.batchItems / 2)} spans/request)`,
        weft: fmtRate(median(exports), 'spans'),
        baseline: `${fmtRate(median(upserts), 'calls')} (/call/upsert_batch, same calls)`,
        ratio: fmtRatio(ratio),
        target: '>= 0.80x',
        met: ratio >= 0.8,
      },
    ],
    notes: [
      `${spans.spans} spans per run in ${spans.bodies.length} requests (${fmtMB(spans.bytes)} of protobuf; the same calls as upsert_batch sends in ${fmtMB(calls.bytes)} of JSON).`,
      `Per run: OTLP ${exports.map((x) => fmtRate(x, 'spans')).join(', ')}; upsert_batch ${upserts.map((x) => fmtRate(x, 'calls')).join(', ')}.`,
      `Server CPU (all threads): ${(median(cpuExport) * 1e6).toFixed(0)} us a span against ${(median(cpuUpsert) * 1e6).toFixed(0)} us a call (medians); a call's CPU over a span's, per run: ${cpuExport.map((x, i) => fmtRatio(cpuUpsert[i]! / x)).join(', ')}. On 2 cores both rates follow the CPU cost, which varies less between runs than the rates do.`,
      `Bytes the server wrote (mostly SQLite's WAL frames and checkpoints): ${(median(writtenExport) / 1024).toFixed(1)} KB a span against ${(median(writtenUpsert) / 1024).toFixed(1)} KB a call (medians). Span and trace ids are random where the SDKs' are time-ordered, so each span's trace and parent keys land on index pages that no other span of the commit touches (its id key goes to the small table of recent id keys, merged in bulk: sqlite/calls/call-ids.ts).`,
      `Export latency: p50 ${fmtMs(percentile(exportMs, 50))}, p99 ${fmtMs(percentile(exportMs, 99))}. Each span is also kept (attributes.otel_span, its content replaced by notes): its row holds ~340 bytes more than its call's.`,
    ],
  };
}

if (isMain(import.meta.url)) await runAlone(run);
