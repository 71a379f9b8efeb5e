// OTLP request bodies made by the real OpenTelemetry JS SDK: spans recorded by a tracer into
// memory, then serialized by the same code the OTLP exporters send with (otlp-transformer's
// protobuf and JSON serializers). Tests post them to Weft and read the calls back.
import { gzipSync } from 'node:zlib';
import { context, trace, type Attributes, type Span, type Tracer, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { TestApp, Reply } from './test-app.js';

export interface Recorded {
  /** The spans as the protobuf exporter sends them. */
  readonly protobuf: Buffer;
  /** The spans as the JSON exporter sends them. */
  readonly json: Buffer;
  /** trace id and span ids (hex) by span name. */
  readonly ids: Map<string, { traceId: string; spanId: string; parentId: string | null }>;
}

export type SpanScript = (
  tracer: Tracer,
  helpers: { child: (name: string, attrs: Attributes, fn?: (s: Span) => void) => void },
) => void;

/** Runs `script` under a tracer whose resource has `resource`; every span ends before serializing. */
export function record(resource: Attributes, script: SpanScript): Recorded {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(resource),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('weft-test', '1.0.0');
  const child = (name: string, attrs: Attributes, fn?: (s: Span) => void) => {
    const s = tracer.startSpan(name, { attributes: attrs });
    fn?.(s);
    s.end();
  };
  script(tracer, { child });
  const spans = exporter.getFinishedSpans();
  const ids = new Map(
    spans.map((s) => [
      s.name,
      {
        traceId: s.spanContext().traceId,
        spanId: s.spanContext().spanId,
        parentId: s.parentSpanContext?.spanId ?? null,
      },
    ]),
  );
  return {
    protobuf: Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!),
    json: Buffer.from(JsonTraceSerializer.serializeRequest(spans)!),
    ids,
  };
}

/** A root span with children made inside it, in the root's context. */
export function tree(
  tracer: Tracer,
  root: string,
  attrs: Attributes,
  children: (open: (name: string, a: Attributes, fn?: (s: Span) => void) => void) => void,
  rootFn?: (s: Span) => void,
): void {
  const r = tracer.startSpan(root, { attributes: attrs });
  const ctx = trace.setSpan(context.active(), r);
  children((name, a, fn) => {
    const s = tracer.startSpan(name, { attributes: a }, ctx);
    fn?.(s);
    s.end();
  });
  rootFn?.(r);
  r.end();
}

export { SpanStatusCode };

export const PROTOBUF = 'application/x-protobuf';

/** Posts an OTLP body (optionally gzipped) to Weft's export route. */
export function postOtlp(
  t: TestApp,
  body: Buffer,
  opts: { type?: string; gzip?: boolean; headers?: Record<string, string>; path?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.gzip) headers['content-encoding'] = 'gzip';
  return t.postRaw(opts.path ?? '/otel/v1/traces', opts.gzip ? gzipSync(body) : body, opts.type ?? PROTOBUF, headers);
}

/** Every call of a project, whole, oldest first. */
export async function callsOf(t: TestApp, projectId: string, extra: Record<string, unknown> = {}): Promise<any[]> {
  const res = await t.post('/calls/stream_query', {
    project_id: projectId,
    sort_by: [{ field: 'started_at', direction: 'asc' }],
    ...extra,
  });
  if (res.status !== 200) throw new Error(`stream_query ${res.status}: ${res.text}`);
  return res.text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}
