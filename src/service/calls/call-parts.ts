// Turns call start/end requests into the parts the store writes: ids generated when
// missing, times parsed to microseconds, JSON encoded once, refs extracted, and
// wb_user_id taken from the caller, never from the body. A start gets its expire_at from
// the project's time-to-live at the time it is accepted.
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../../api/calls.js';
import type { CompletedCallSchemaForInsert } from '../../api/calls-v2.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { CallEndPart, CallStartPart } from '../../storage/calls/call-store.js';
import { extractRefs, textMayHoldRefs } from '../refs/extract-refs.js';
import { encodeJson } from '../json/json-text.js';
import { StringifiedJson } from '../json/stringified-json.js';
import { uuidv7 } from '../json/ids.js';
import { parseTimestamp } from '../../time.js';

const MAX_ID = 128;
const MAX_DISPLAY_NAME = 1024;
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A UTF-16 surrogate without its pair: no character, and UTF-8 (which both engines store) has no bytes for it. */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/**
 * Plain text as stored: a lone surrogate becomes U+FFFD, as a UTF-8 encoder writes it (else
 * each engine would store its own bytes for it). JSON values keep theirs, as \u escapes.
 */
export const wellFormed = <T extends string | null | undefined>(v: T): T =>
  typeof v === 'string' && LONE_SURROGATE.test(v) ? (v.replace(LONE_SURROGATES, '\ufffd') as T) : v;

function checkId(value: string, field: string): string {
  if (value.length === 0 || value.length > MAX_ID || CONTROL.test(value) || LONE_SURROGATE.test(value)) {
    throw new InvalidRequestError(
      `${field} must be 1..${MAX_ID} printable characters, got ${JSON.stringify(value.slice(0, 200))}`,
    );
  }
  return value;
}

export const MICROS_PER_DAY = 86_400_000_000;

const optId = (v: string | null | undefined, field: string) => (v == null || v === '' ? null : checkId(v, field));

/** A part's display name as stored (null when none), refused when too long. */
function displayName(name: string | null | undefined): string | null {
  if (name != null && name.length > MAX_DISPLAY_NAME)
    throw new InvalidRequestError(`display_name is longer than ${MAX_DISPLAY_NAME} characters`);
  return wellFormed(name) || null;
}

/** When a call started at `startedAt` expires under a time-to-live of `retentionDays` (null: never). */
const expiry = (startedAt: number, retentionDays: number | null) =>
  retentionDays === null ? null : startedAt + retentionDays * MICROS_PER_DAY;

/** `retentionDays`: the project's time-to-live, or null when it has none (the call never expires). */
export function toStartPart(
  s: StartedCallSchemaForInsert,
  userId: string,
  retentionDays: number | null = null,
): CallStartPart {
  const started_at = parseTimestamp(s.started_at, 'started_at');
  const attributes = s.otel_dump ? { ...s.attributes, otel_span: s.otel_dump } : s.attributes;
  return {
    project_id: s.project_id,
    id: s.id ? checkId(s.id, 'id') : uuidv7(),
    trace_id: s.trace_id ? checkId(s.trace_id, 'trace_id') : uuidv7(),
    parent_id: optId(s.parent_id, 'parent_id'),
    thread_id: optId(s.thread_id, 'thread_id'),
    turn_id: optId(s.turn_id, 'turn_id'),
    op_name: wellFormed(s.op_name),
    display_name: displayName(s.display_name),
    started_at,
    attributes: encodeJson(attributes, 'attributes'),
    inputs: encodeJson(s.inputs, 'inputs'),
    input_refs: extractRefs(s.inputs),
    wb_user_id: userId,
    wb_run_id: wellFormed(s.wb_run_id) ?? null,
    wb_run_step: s.wb_run_step ?? null,
    expire_at: expiry(started_at, retentionDays),
  };
}

/** A non-object output is wrapped as {"output": v} for ref extraction, as Weave does. */
const outputRefs = (output: unknown) =>
  extractRefs(output !== null && typeof output === 'object' && !Array.isArray(output) ? output : { output });

export function toEndPart(e: EndedCallSchemaForInsert): CallEndPart {
  const output = e.output === undefined ? null : e.output;
  return {
    project_id: e.project_id,
    id: checkId(e.id, 'id'),
    ended_at: parseTimestamp(e.ended_at, 'ended_at'),
    exception: wellFormed(e.exception) ?? null,
    output: encodeJson(output, 'output'),
    summary: encodeJson(e.summary, 'summary'),
    output_refs: outputRefs(output),
    wb_run_step_end: e.wb_run_step_end ?? null,
  };
}

/** A finished call (v2 calls/complete) as the start and the end it is made of. */
export function splitCompleted(c: CompletedCallSchemaForInsert): {
  start: StartedCallSchemaForInsert;
  end: EndedCallSchemaForInsert;
} {
  const { ended_at, exception, output, summary, wb_run_step_end, ...start } = c;
  return {
    start,
    end: { project_id: c.project_id, id: c.id, ended_at, exception, output, summary: summary ?? {}, wb_run_step_end },
  };
}

/**
 * A finished call that another protocol described (an OTLP span): times already in
 * microseconds, JSON as values, or as the sender's text where that text is already in its
 * stored form (StringifiedJson: stored as it is, not parsed and encoded again). Ids and
 * names arrive checked by that protocol's reader; they are checked again here, as every
 * call's are.
 */
export interface ForeignCall
  extends Omit<CallStartPart, 'attributes' | 'inputs' | 'input_refs' | 'wb_user_id' | 'expire_at'>,
    Omit<CallEndPart, 'output' | 'summary' | 'output_refs'> {
  readonly attributes: Record<string, unknown>;
  readonly inputs: Record<string, unknown> | StringifiedJson;
  /** Any JSON value, or a StringifiedJson of one. */
  readonly output: unknown;
  readonly summary: Record<string, unknown>;
}

/** A JSON value as stored, and its refs; StringifiedJson text is only parsed when it may hold a ref. */
function foreignJson(v: unknown, field: string, refsOf: (value: unknown) => string[]): [string, string[]] {
  if (!(v instanceof StringifiedJson)) return [encodeJson(v, field), refsOf(v)];
  return [v.text, textMayHoldRefs(v.text) ? refsOf(JSON.parse(v.text)) : []];
}

/** A foreign call's two parts, as toStartPart and toEndPart make them from a start and an end. */
export function foreignParts(
  c: ForeignCall,
  userId: string,
  retentionDays: number | null,
): { start: CallStartPart; end: CallEndPart } {
  const id = checkId(c.id, 'id');
  const [inputs, inputRefs] = foreignJson(c.inputs, 'inputs', extractRefs);
  const [output, outputRefList] = foreignJson(c.output === undefined ? null : c.output, 'output', outputRefs);
  return {
    start: {
      project_id: c.project_id,
      id,
      trace_id: checkId(c.trace_id, 'trace_id'),
      parent_id: optId(c.parent_id, 'parent_id'),
      thread_id: optId(c.thread_id, 'thread_id'),
      turn_id: optId(c.turn_id, 'turn_id'),
      op_name: wellFormed(c.op_name),
      display_name: displayName(c.display_name),
      started_at: c.started_at,
      attributes: encodeJson(c.attributes, 'attributes'),
      inputs,
      input_refs: inputRefs,
      wb_user_id: userId,
      wb_run_id: wellFormed(c.wb_run_id),
      wb_run_step: c.wb_run_step,
      expire_at: expiry(c.started_at, retentionDays),
    },
    end: {
      project_id: c.project_id,
      id,
      ended_at: c.ended_at,
      exception: wellFormed(c.exception),
      output,
      summary: encodeJson(c.summary, 'summary'),
      output_refs: outputRefList,
      wb_run_step_end: c.wb_run_step_end,
    },
  };
}
