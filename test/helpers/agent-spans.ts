// OTLP/JSON exports of GenAI agent spans, as an exporter sends them (hex ids, nanosecond
// times as text, typed attribute values), for the /agents/otel/v1/traces tests.
import { randomBytes } from 'node:crypto';

export const hexId = (bytes: number) => randomBytes(bytes).toString('hex');
/** Milliseconds (fractions to the microsecond) as OTLP's nanoseconds, in text. */
const nanos = (ms: number) => `${BigInt(Math.round(ms * 1000)) * 1000n}`;

type Value = string | number | boolean | string[];
export interface TestSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly startMs: number;
  readonly endMs?: number;
  readonly attributes?: Record<string, Value>;
  readonly status?: 0 | 1 | 2;
}

const anyValue = (v: Value): Record<string, unknown> =>
  Array.isArray(v)
    ? { arrayValue: { values: v.map((s) => ({ stringValue: s })) } }
    : typeof v === 'string'
      ? { stringValue: v }
      : typeof v === 'boolean'
        ? { boolValue: v }
        : Number.isInteger(v)
          ? { intValue: v }
          : { doubleValue: v };

const attributes = (a: Record<string, Value>) => Object.entries(a).map(([key, v]) => ({ key, value: anyValue(v) }));

export function otlpJson(resource: Record<string, Value>, spans: readonly TestSpan[]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: attributes(resource) },
        scopeSpans: [
          {
            scope: { name: 'weave-genai', version: '1' },
            spans: spans.map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: 1,
              startTimeUnixNano: nanos(s.startMs),
              endTimeUnixNano: nanos(s.endMs ?? s.startMs + 10),
              attributes: attributes(s.attributes ?? {}),
              status: { code: s.status ?? 0 },
            })),
          },
        ],
      },
    ],
  });
}
