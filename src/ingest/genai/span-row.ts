// One OTLP span as an agent span row: its ids, times and status; each promoted GenAI
// attribute in its column (the first of its wire keys that is set); messages normalized;
// every other attribute in the custom map of its type; the span as received kept once, as
// raw_span_dump. A column none of whose wire keys is set is read from the span's other
// conventions (fallbacks.ts: span events, OpenInference, Google ADK, Vercel's ai.* keys). The agent it belongs to (owner_*) is left to the store, which sees the
// whole trace (a child may arrive before its parent).
import type { OtlpSpan } from '../otlp/otlp-spans.js';
import type { SpanRow } from '../../query/span-columns.js';
import { fallbackAttributes } from './fallbacks.js';
import { parseJsonText } from './json-text.js';
import { MESSAGE_KEYS, PROMOTED_KEYS, SEMCONV, type SemconvType } from './semconv.js';
import { normalizeInstructions, normalizeMessages } from './span-messages.js';

const KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS = ['UNSET', 'OK', 'ERROR'];
/** At most this many custom attributes per span, each value at most this many characters (Weave's bounds). */
const MAX_CUSTOM_ATTRS = 1024;
const MAX_CUSTOM_CHARS = 256 * 1024;

function valueAs(v: unknown, type: SemconvType): string | number | null {
  if (v === undefined || v === null) return null;
  switch (type) {
    case 'string':
      return typeof v === 'string' ? (v === '' ? null : v) : typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'json':
      return typeof v === 'string' ? (v === '' ? null : v) : JSON.stringify(v);
    case 'int': {
      const n = typeof v === 'string' ? Number(v) : v;
      return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : null;
    }
    case 'float': {
      const n = typeof v === 'string' ? Number(v) : v;
      return typeof n === 'number' && Number.isFinite(n) ? n : null;
    }
    case 'strings': {
      // A list sent as JSON text (Mastra's finish reasons) is that list.
      const parsed = typeof v === 'string' && v.startsWith('[') ? parseJsonText(v) : v;
      const list = Array.isArray(parsed) ? parsed : [v];
      return JSON.stringify(list.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));
    }
  }
}

function first(attrs: Record<string, unknown>, keys: readonly string[]): unknown {
  for (const k of keys) {
    const v = attrs[k];
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
}

const clip = (s: string) =>
  s.length <= MAX_CUSTOM_CHARS ? s : `${s.slice(0, MAX_CUSTOM_CHARS)}...[truncated from ${s.length} chars]`;

/** The attributes no column took, by type: strings, whole numbers, reals, booleans (lists and maps as JSON text). */
function customAttrs(attrs: Record<string, unknown>) {
  const out = {
    string: {} as Record<string, string>,
    int: {} as Record<string, number>,
    float: {} as Record<string, number>,
    bool: {} as Record<string, boolean>,
  };
  let n = 0;
  for (const [k, v] of Object.entries(attrs)) {
    if (PROMOTED_KEYS.has(k) || v === null || v === undefined) continue;
    if (n++ >= MAX_CUSTOM_ATTRS) break;
    if (typeof v === 'boolean') out.bool[k] = v;
    else if (typeof v === 'number') (Number.isInteger(v) ? out.int : out.float)[k] = v;
    else out.string[k] = clip(typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

const hex = (id: string | null) => id ?? null;

/** The span as OTLP/JSON would carry it (times as nanosecond text). */
function rawDump(span: OtlpSpan, resource: Record<string, unknown>): string {
  return JSON.stringify({
    trace_id: span.traceId,
    span_id: span.spanId,
    parent_span_id: span.parentSpanId,
    name: span.name,
    kind: KINDS[span.kind] ?? 'UNSPECIFIED',
    start_time_unix_nano: `${span.startUs}000`,
    end_time_unix_nano: span.endUs === 0 ? null : `${span.endUs}000`,
    status: { code: STATUS[span.status.code] ?? 'UNSET', message: span.status.message },
    attributes: span.attributes,
    events: span.events,
    links: span.links,
    scope: span.scope,
    resource,
  });
}

export interface SpanOrigin {
  readonly projectId: string;
  readonly wbUserId: string | null;
}

export function spanRow(span: OtlpSpan, resource: Record<string, unknown>, origin: SpanOrigin): SpanRow {
  const a = span.attributes;
  const row: Record<string, string | number | null> = {
    project_id: origin.projectId,
    trace_id: span.traceId,
    span_id: span.spanId,
    parent_span_id: hex(span.parentSpanId),
    span_name: span.name,
    span_kind: KINDS[span.kind] ?? 'UNSPECIFIED',
    started_at: span.startUs,
    ended_at: span.endUs === 0 ? null : span.endUs,
    status_code: STATUS[span.status.code] ?? 'UNSET',
    status_message: span.status.message === '' ? null : span.status.message,
  };
  const fallback = fallbackAttributes(span);
  const pick = (keys: readonly string[]) => first(a, keys) ?? first(fallback, keys);
  for (const attr of SEMCONV) row[attr.column] = valueAs(pick(attr.keys), attr.type);
  row.input_messages = JSON.stringify(normalizeMessages(pick(MESSAGE_KEYS.input), 'user'));
  row.output_messages = JSON.stringify(normalizeMessages(pick(MESSAGE_KEYS.output), 'assistant'));
  row.system_instructions = JSON.stringify(normalizeInstructions(pick(MESSAGE_KEYS.system)));
  const custom = customAttrs(a);
  row.custom_attrs_string = JSON.stringify(custom.string);
  row.custom_attrs_int = JSON.stringify(custom.int);
  row.custom_attrs_float = JSON.stringify(custom.float);
  row.custom_attrs_bool = JSON.stringify(custom.bool);
  row.wb_user_id = origin.wbUserId;
  row.wb_run_id = typeof a['wandb.run_id'] === 'string' ? a['wandb.run_id'] : null;
  row.wb_run_step = null;
  row.wb_run_step_end = null;
  row.owner_agent_name = null;
  row.owner_agent_version = null;
  row.tokens_counted = 1;
  row.conversation_inherited = 0;
  row.raw_span_dump = rawDump(span, resource);
  return row as SpanRow;
}
