// What /metrics exposes, in the Prometheus text format: one registry per app (tests build many
// apps in one process; prom-client's global registry is never used), plus the process's own
// metrics (process-metrics.ts). Counters move where the work happens: the HTTP edge reports each
// request, the metered store (metered-store.ts) each acknowledged write; gauges read the store
// when scraped.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../../storage/store.js';
import { processMetrics } from './process-metrics.js';

/** One answered request, as the HTTP edge saw it. `route` is a route pattern, never a raw URL. */
export interface RequestSample {
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
}

/** The writes the metered store reports, each once it is acknowledged (durable). */
export interface WriteMeter {
  callParts(starts: number, ends: number): void;
  objects(n: number): void;
  feedback(n: number): void;
  /** Agent spans written (an OTLP export's stored spans, a historical turn's). */
  spans(n: number): void;
  /** A call write refused because the ingest queue was full (answered 503). */
  ingestRejected(): void;
  retentionDeleted(calls: number): void;
  retentionDeletedSpans(spans: number): void;
}

export interface ServerMetrics extends WriteMeter {
  request(sample: RequestSample): void;
  /** The exposition, in the Prometheus text format 0.0.4 (its Content-Type: api/metrics.ts). */
  render(): Promise<string>;
  /** Stops listening to the store (the app is closing). */
  close(): void;
}

/** Commit latencies: a group commit with fsync takes milliseconds, a ClickHouse insert more. */
const COMMIT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface ServerMetricsOptions {
  /** The store as the engine made it (not the metered one): its queue, size and commits. */
  readonly store: Pick<Store, 'calls' | 'stats'>;
  /** The configured bound of the ingest queue, bytes. */
  readonly ingestQueueBytes: number;
}

export function createServerMetrics(opts: ServerMetricsOptions): ServerMetrics {
  const own = new Registry();
  const registers = [own];
  const http = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'weft_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: http,
    registers,
  });
  const duration = new Histogram({
    name: 'weft_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames: http,
    registers,
  });
  const bytesIn = new Counter({
    name: 'weft_http_request_bytes_total',
    help: 'Bytes of request bodies received, by method and route pattern',
    labelNames: ['method', 'route'],
    registers,
  });
  const bytesOut = new Counter({
    name: 'weft_http_response_bytes_total',
    help: 'Bytes of response bodies sent, by method and route pattern',
    labelNames: ['method', 'route'],
    registers,
  });
  const calls = new Counter({
    name: 'weft_calls_written_total',
    help: 'Call parts written durably (a call is a start and an end part), by part',
    labelNames: ['part'],
    registers,
  });
  const objects = new Counter({
    name: 'weft_objects_written_total',
    help: 'Object versions written (or re-asserted) durably',
    registers,
  });
  const feedback = new Counter({
    name: 'weft_feedback_written_total',
    help: 'Feedback rows written durably',
    registers,
  });
  // No label: a span is written whole (a call's two parts are what its counter's label tells apart).
  const spans = new Counter({
    name: 'weft_spans_written_total',
    help: 'Agent spans written durably (OTLP exports to /agents/otel/v1/traces, historical turns)',
    registers,
  });
  const rejected = new Counter({
    name: 'weft_ingest_rejected_total',
    help: 'Call writes answered 503 because the ingest queue was full',
    registers,
  });
  const purged = new Counter({
    name: 'weft_retention_deleted_calls_total',
    help: 'Expired calls hard-deleted by the retention job',
    registers,
  });
  const purgedSpans = new Counter({
    name: 'weft_retention_deleted_spans_total',
    help: 'Agent spans of expired traces hard-deleted by the retention job',
    registers,
  });
  const commits = new Histogram({
    name: 'weft_writer_commit_seconds',
    help: 'Time of one commit (SQLite: a group transaction of the writer; ClickHouse: an insert)',
    buckets: COMMIT_BUCKETS,
    registers,
  });
  // Gauges read the store when scraped.
  new Gauge({
    name: 'weft_ingest_queue_bytes',
    help: 'Bytes of call parts accepted but not yet committed',
    registers,
    collect() {
      this.set(opts.store.calls.queuedBytes());
    },
  });
  new Gauge({
    name: 'weft_ingest_queue_limit_bytes',
    help: 'Bytes of waiting call parts past which call writes answer 503',
    registers,
  }).set(opts.ingestQueueBytes);
  new Gauge({
    name: 'weft_database_size_bytes',
    help: 'Bytes the database takes on disk',
    registers,
    async collect() {
      // A failed read (ClickHouse unreachable) keeps the last value rather than failing the scrape.
      const bytes = await opts.store.stats.sizeBytes().catch(() => null);
      if (bytes !== null) this.set(bytes);
    },
  });
  const startParts = calls.labels({ part: 'start' });
  const endParts = calls.labels({ part: 'end' });
  const stopCommits = opts.store.stats.onCommit((seconds) => commits.observe(seconds));
  const registry = Registry.merge([own, processMetrics()]);

  return {
    request(s) {
      const labels = { method: s.method, route: s.route, status: String(s.status) };
      requests.inc(labels);
      duration.observe(labels, s.seconds);
      bytesIn.inc({ method: s.method, route: s.route }, s.bytesIn);
      bytesOut.inc({ method: s.method, route: s.route }, s.bytesOut);
    },
    callParts(starts, ends) {
      if (starts > 0) startParts.inc(starts);
      if (ends > 0) endParts.inc(ends);
    },
    objects: (n) => objects.inc(n),
    feedback: (n) => feedback.inc(n),
    spans(n) {
      if (n > 0) spans.inc(n);
    },
    ingestRejected: () => rejected.inc(),
    retentionDeleted(n) {
      if (n > 0) purged.inc(n);
    },
    retentionDeletedSpans(n) {
      if (n > 0) purgedSpans.inc(n);
    },
    render: () => registry.metrics(),
    close: stopCommits,
  };
}
