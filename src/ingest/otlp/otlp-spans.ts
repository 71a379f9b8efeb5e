// One shape for the spans of an OTLP export, whichever encoding brought them. The protobuf
// decoder (otlp-proto.ts: message objects, 64-bit integers as Long) and JSON.parse both give
// nested objects of the same field names; this walk reads either into OtlpSpan values: ids in lower-case hex, times as
// whole microseconds (Weft's resolution), attribute values as JSON values. What is wrong above the spans (a
// list that is not a list) fails the request (400); what is wrong in one span (an id of the
// wrong length, no start time) rejects that span only, reported in partial_success.
import { InvalidRequestError } from '../../api/errors.js';

export type Attributes = Record<string, unknown>;

export interface OtlpEvent {
  readonly name: string;
  readonly timeUs: number;
  readonly attributes: Attributes;
}

export interface OtlpLink {
  readonly traceId: string;
  readonly spanId: string;
  readonly attributes: Attributes;
}

export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly traceState: string;
  readonly name: string;
  /** SpanKind number: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  /** Microseconds since the epoch; endUs is 0 when the span has no end time. */
  readonly startUs: number;
  readonly endUs: number;
  /** Flat, as sent: dotted keys stay keys. */
  readonly attributes: Attributes;
  readonly events: readonly OtlpEvent[];
  readonly links: readonly OtlpLink[];
  /** StatusCode number: 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message: string };
  readonly scope: { readonly name: string; readonly version: string };
}

export interface OtlpResourceSpans {
  readonly resource: Attributes;
  readonly spans: readonly OtlpSpan[];
}

/** A span that could not be read, by its position and name where known. */
export interface RejectedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly reason: string;
}

export interface OtlpExport {
  readonly resources: readonly OtlpResourceSpans[];
  readonly rejected: readonly RejectedSpan[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

class SpanProblem extends Error {}

/** A field by its JSON name or its proto name (both are valid in OTLP/JSON). */
function get(o: Obj, camel: string): unknown {
  if (camel in o) return o[camel];
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return o[snake];
}

function list(o: Obj, name: string, where: string): unknown[] {
  const v = get(o, name);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new InvalidRequestError(`${where}.${name} must be a list`);
  return v;
}

function objectAt(v: unknown, where: string): Obj {
  if (!isObj(v)) throw new InvalidRequestError(`${where} must be an object`);
  return v;
}

function text(o: Obj, name: string): string {
  const v = get(o, name);
  return typeof v === 'string' ? v : '';
}

type LongBits = { readonly low: number; readonly high: number };
const isLong = (v: unknown): v is LongBits => typeof v === 'object' && v !== null && 'low' in v && 'high' in v;

/** A decoded 64-bit integer (protobufjs gives a Long object) as its decimal text; else unchanged. */
function unlong(v: unknown): unknown {
  return isLong(v) ? String(v) : v;
}

function int(o: Obj, name: string): number {
  const v = unlong(get(o, name));
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return 0;
}

const HEX = /^[0-9a-f]*$/;

/** An id as lower-case hex: bytes from protobuf; hex (OTLP/JSON) or base64 (proto3 JSON) from JSON. */
function idOf(v: unknown, bytes: number, what: string, optional: boolean): string | null {
  let hex: string | null = null;
  // An absent bytes field decodes to its default, an empty array.
  if (v === undefined || v === null || v === '' || ((v instanceof Uint8Array || Array.isArray(v)) && v.length === 0)) {
    if (optional) return null;
    throw new SpanProblem(`${what} is missing`);
  }
  if (Buffer.isBuffer(v)) hex = v.toString('hex');
  else if (v instanceof Uint8Array) hex = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
  else if (typeof v === 'string') {
    const lower = v.toLowerCase();
    if (lower.length === bytes * 2 && HEX.test(lower)) hex = lower;
    else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(v)) {
      const raw = Buffer.from(v, 'base64');
      if (raw.length === bytes) hex = raw.toString('hex');
    }
  }
  if (hex === null || hex.length !== bytes * 2)
    throw new SpanProblem(`${what} must be ${bytes} bytes (${bytes * 2} hex digits)`);
  if (/^0+$/.test(hex)) {
    if (optional) return null;
    throw new SpanProblem(`${what} is all zeros`);
  }
  return hex;
}

/** The first microsecond of the year 10000: later times have no ISO 8601 form Weft reads. */
const MAX_MICROS = 253_402_300_800_000_000;

/**
 * Nanoseconds since the epoch (a Long from protobuf, decimal text or a number from JSON) as
 * whole microseconds, exactly: 2^32 ns = 4,294,967 us + 296 ns, so a Long's two halves
 * divide without a 64-bit type.
 */
function micros(raw: unknown, what: string): number {
  if (isLong(raw)) {
    const high = raw.high >>> 0;
    return high * 4_294_967 + Math.floor((high * 296 + (raw.low >>> 0)) / 1000);
  }
  if (typeof raw === 'string' && /^\d+$/.test(raw)) return raw.length <= 3 ? 0 : Number(raw.slice(0, -3));
  if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) return Math.floor(raw / 1000);
  if (raw === undefined || raw === null) return 0;
  throw new SpanProblem(`${what} must be an unsigned integer of nanoseconds`);
}

function spanTime(raw: unknown, what: string): number {
  const us = micros(raw, what);
  if (us >= MAX_MICROS) throw new SpanProblem(`${what} is after the year 9999`);
  return us;
}

/** An AnyValue as a JSON value; int64 beyond 2^53 stays a decimal string, bytes become base64. */
export function anyValue(v: unknown): unknown {
  if (!isObj(v)) return null;
  for (const [key, value] of Object.entries(v)) {
    if (value === undefined || value === null) continue;
    switch (key) {
      case 'stringValue':
      case 'string_value':
        return typeof value === 'string' ? value : String(value);
      case 'boolValue':
      case 'bool_value':
        return value === true || value === 'true';
      case 'intValue':
      case 'int_value': {
        const n = Number(unlong(value));
        return Number.isSafeInteger(n) ? n : String(value);
      }
      case 'doubleValue':
      case 'double_value': {
        const n = Number(value);
        return Number.isFinite(n) ? n : String(value);
      }
      case 'arrayValue':
      case 'array_value':
        return isObj(value) && Array.isArray(value.values) ? value.values.map(anyValue) : [];
      case 'kvlistValue':
      case 'kvlist_value':
        return isObj(value) && Array.isArray(value.values) ? attributesOf(value.values) : {};
      case 'bytesValue':
      case 'bytes_value':
        return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : String(value);
      default:
    }
  }
  return null;
}

/** A KeyValue list as a flat record (a repeated key: the last one wins). */
export function attributesOf(kvs: unknown): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(kvs)) return out;
  for (const kv of kvs) {
    if (!isObj(kv) || typeof kv.key !== 'string') continue;
    out[kv.key] = anyValue(kv.value);
  }
  return out;
}

function readSpan(s: Obj, scope: OtlpSpan['scope']): OtlpSpan {
  const status = isObj(get(s, 'status')) ? (get(s, 'status') as Obj) : {};
  const codeRaw = get(status, 'code');
  // JSON senders may use the enum's name.
  const code =
    typeof codeRaw === 'string' && !/^\d+$/.test(codeRaw)
      ? ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'].indexOf(codeRaw)
      : int(status, 'code');
  const kindRaw = get(s, 'kind');
  const kind =
    typeof kindRaw === 'string' && !/^\d+$/.test(kindRaw)
      ? Math.max(
          0,
          [
            'SPAN_KIND_UNSPECIFIED',
            'SPAN_KIND_INTERNAL',
            'SPAN_KIND_SERVER',
            'SPAN_KIND_CLIENT',
            'SPAN_KIND_PRODUCER',
            'SPAN_KIND_CONSUMER',
          ].indexOf(kindRaw),
        )
      : int(s, 'kind');
  const startUs = spanTime(get(s, 'startTimeUnixNano'), 'startTimeUnixNano');
  if (startUs === 0) throw new SpanProblem('startTimeUnixNano is missing');
  return {
    traceId: idOf(get(s, 'traceId'), 16, 'traceId', false)!,
    spanId: idOf(get(s, 'spanId'), 8, 'spanId', false)!,
    parentSpanId: idOf(get(s, 'parentSpanId'), 8, 'parentSpanId', true),
    traceState: text(s, 'traceState'),
    name: text(s, 'name'),
    kind,
    startUs,
    endUs: spanTime(get(s, 'endTimeUnixNano'), 'endTimeUnixNano'),
    attributes: attributesOf(get(s, 'attributes')),
    events: (Array.isArray(get(s, 'events')) ? (get(s, 'events') as unknown[]) : []).filter(isObj).map((e) => ({
      name: text(e, 'name'),
      timeUs: micros(get(e, 'timeUnixNano'), 'event timeUnixNano'),
      attributes: attributesOf(get(e, 'attributes')),
    })),
    links: (Array.isArray(get(s, 'links')) ? (get(s, 'links') as unknown[]) : []).filter(isObj).flatMap((l) => {
      try {
        return [
          {
            traceId: idOf(get(l, 'traceId'), 16, 'link traceId', false)!,
            spanId: idOf(get(l, 'spanId'), 8, 'link spanId', false)!,
            attributes: attributesOf(get(l, 'attributes')),
          },
        ];
      } catch {
        return [];
      }
    }),
    status: { code: Math.max(code, 0), message: text(status, 'message') },
    scope,
  };
}

const loose = (v: unknown) =>
  typeof v === 'string' ? v : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : '';

/** Reads an ExportTraceServiceRequest given as plain data (decoded protobuf or parsed JSON). */
export function readExport(message: unknown): OtlpExport {
  const root = objectAt(message, 'the request body');
  const resources: OtlpResourceSpans[] = [];
  const rejected: RejectedSpan[] = [];
  list(root, 'resourceSpans', 'body').forEach((rsRaw, r) => {
    const where = `resourceSpans[${r}]`;
    const rs = objectAt(rsRaw, where);
    const resourceRaw = get(rs, 'resource');
    const resource = isObj(resourceRaw) ? attributesOf(get(resourceRaw, 'attributes')) : {};
    const spans: OtlpSpan[] = [];
    list(rs, 'scopeSpans', where).forEach((ssRaw, i) => {
      const ssWhere = `${where}.scopeSpans[${i}]`;
      const ss = objectAt(ssRaw, ssWhere);
      const scopeRaw = get(ss, 'scope');
      const scope = isObj(scopeRaw)
        ? { name: text(scopeRaw, 'name'), version: text(scopeRaw, 'version') }
        : { name: '', version: '' };
      list(ss, 'spans', ssWhere).forEach((spanRaw, j) => {
        const s = objectAt(spanRaw, `${ssWhere}.spans[${j}]`);
        try {
          spans.push(readSpan(s, scope));
        } catch (err) {
          if (!(err instanceof SpanProblem)) throw err;
          rejected.push({
            name: text(s, 'name'),
            traceId: loose(get(s, 'traceId')),
            spanId: loose(get(s, 'spanId')),
            reason: err.message,
          });
        }
      });
    });
    resources.push({ resource, spans });
  });
  return { resources, rejected };
}
