// Every check Weave makes of a historical-turn envelope before anything is written
// (weave/trace_server/agents/historical_turn_validation.py and PreparedTurn's validators), in its
// order, over the envelope as Python reads it (exact-json.ts: ints keep every digit, 1.0 stays a
// float): the capability (412), the span tree, the deterministic ids derived from the logical key,
// the attributes' OTel domain, the root's certificate, the canonical digest (422 each) and the
// size (413). What Weft does differently, and why:
//  - compressed_bytes is not compared: it is a gzip preview whose length depends on the zlib
//    build (Node's differs from CPython's); uncompressed_bytes and wire_sha256 are exact.
//  - `historical_turn.*` keys other than the root's four are refused (the SDK never sends them:
//    it refuses them as custom attributes).
//  - the path's logical key must be the envelope's.
import { createHash } from 'node:crypto';
import {
  HISTORICAL_TURN,
  type HistoricalTurnSpanKind,
  type HistoricalTurnUpsertReq,
} from '../../api/agents-history.js';
import {
  CapabilityMismatchError,
  InvalidRequestError,
  RequestTooLargeError,
  RequestValidationError,
} from '../../api/errors.js';
import { NotCanonicalError, canonicalJson, canonicalObject, pythonValue, type PyValue } from '../json/exact-json.js';

type PyObject = { readonly [key: string]: PyValue };

export interface CheckedSpan {
  readonly kind: HistoricalTurnSpanKind;
  readonly name: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** As Python holds them: ints are bigint, floats number. */
  readonly attributes: PyObject;
}

/** An envelope that passed every check. */
export interface CheckedTurn {
  readonly projectId: string;
  readonly logicalKey: string;
  readonly wireSha256: string;
  readonly conversationId: string;
  readonly traceId: string;
  readonly rootSpanId: string;
  readonly schemaVersion: string;
  readonly spans: readonly CheckedSpan[];
}

const OPERATION: Readonly<Record<HistoricalTurnSpanKind, string>> = {
  turn: 'invoke_agent',
  llm: 'chat',
  tool: 'execute_tool',
  subagent: 'invoke_agent',
};
const CERTIFICATE_PREFIX = 'historical_turn.';
/** The root's certificate: these attributes repeat the envelope's fields. */
const CERTIFICATE = [
  'historical_turn.logical_key',
  'historical_turn.turn_key',
  'historical_turn.source_payload_sha256',
  'historical_turn.schema_version',
];

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Weave's logical key: the source identity of a turn within its destination project. */
export const logicalKeyOf = (projectId: string, conversationId: string, turnKey: string) =>
  sha256(`hivemind-weave-turn-v1\0${projectId}\0${conversationId}\0${turnKey}`);

/** Schema-v1 ids: `trace` (32 hex), `root` and `child:<i>:<kind>` (16 hex); all zeros becomes ...01. */
export function historicalTurnId(domain: string, logicalKey: string, hexLength: 16 | 32): string {
  const id = sha256(`weave-historical-turn-id-v1\0${domain}\0${logicalKey}`).slice(0, hexLength);
  return /^0+$/.test(id) ? `${'0'.repeat(hexLength - 1)}1` : id;
}

/** Weave's commit id and storage row key: deterministic per (project, logical key). */
export const commitIdOf = (projectId: string, logicalKey: string) =>
  `htc1:${sha256(`weave-historical-turn-commit-v1\0${projectId}\0${logicalKey}`)}`;
export const storageRowKeyOf = (projectId: string, logicalKey: string) =>
  `htr1:${sha256(`weave-historical-turn-row-v1\0${projectId}\0${logicalKey}`)}`;

const invalid = (loc: readonly (string | number)[], msg: string) =>
  new RequestValidationError([{ loc: ['body', ...loc], msg, type: 'historical_turn_invalid' }]);

/** Nanoseconds as Weave's int: a JSON integer or its digits as text; a date-time text is refused. */
function nanos(v: PyValue, loc: readonly (string | number)[]): bigint {
  if (typeof v === 'bigint' && v >= 0n) return v;
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return BigInt(v);
  const given =
    typeof v === 'string' ? `${JSON.stringify(v.slice(0, 40))}, a text` : 'a number with a fraction or exponent';
  throw invalid(
    loc,
    `must be nanoseconds since the Unix epoch (UTC), an integer; got ${given}. A date-time text is not taken, since it may carry no zone`,
  );
}

/** Weave's OTel domain: a scalar, or a list of scalars of one type; floats finite. */
function checkAttribute(v: PyValue, loc: readonly (string | number)[]): void {
  const scalar = (x: PyValue) => ['boolean', 'string', 'bigint', 'number'].includes(typeof x) && x !== null;
  const finite = (x: PyValue) => typeof x !== 'number' || Number.isFinite(x);
  if (Array.isArray(v)) {
    if (v.length > 0 && (!v.every(scalar) || !v.every((x) => typeof x === typeof v[0])))
      throw invalid(loc, 'must be an OTel scalar or a list of scalars of one type');
    if (!v.every(finite)) throw invalid(loc, 'must hold finite floats only');
    return;
  }
  if (!scalar(v)) throw invalid(loc, 'must be an OTel scalar (text, integer, float, boolean) or a list of one of them');
  if (!finite(v)) throw invalid(loc, 'must be a finite float');
}

function checkCapability(req: HistoricalTurnUpsertReq): void {
  const wanted = HISTORICAL_TURN.capabilityVersion;
  const onRequest = req.capability_version ?? wanted;
  const onTurn = req.turn.capability_version ?? wanted;
  if (onRequest !== wanted || onTurn !== wanted)
    throw new CapabilityMismatchError(
      `historical turn capability mismatch: expected ${JSON.stringify(wanted)}, got request ${JSON.stringify(onRequest)} and envelope ${JSON.stringify(onTurn)}`,
      { expected_capability_version: wanted },
    );
}

/** PreparedTurn's model validators: one root first, direct children within its times, ids unique. */
function checkTree(turn: PyObject, spans: readonly CheckedSpan[], traceIds: readonly PyValue[]): void {
  if (turn.span_count !== BigInt(spans.length)) throw invalid(['turn', 'span_count'], 'must equal the number of spans');
  const root = spans[0]!;
  if (root.kind !== 'turn') throw invalid(['turn', 'spans', 0, 'kind'], 'the first span must be the turn root');
  if (root.parentSpanId !== null) throw invalid(['turn', 'spans', 0, 'parent_span_id'], 'the turn root has no parent');
  if (traceIds[0] !== turn.trace_id || root.spanId !== turn.root_span_id)
    throw invalid(['turn', 'spans', 0], "the turn root's ids must be the envelope's trace_id and root_span_id");
  const seen = new Set<string>();
  spans.forEach((s, i) => {
    if (s.endNs < s.startNs) throw invalid(['turn', 'spans', i, 'end_time_unix_nano'], 'must not precede its start');
    if (seen.has(s.spanId)) throw invalid(['turn', 'spans', i, 'span_id'], 'duplicate span_id');
    seen.add(s.spanId);
    if (traceIds[i] !== turn.trace_id)
      throw invalid(['turn', 'spans', i, 'trace_id'], "must be the envelope's trace_id");
    if (i === 0) return;
    if (s.kind === 'turn') throw invalid(['turn', 'spans', i, 'kind'], 'a turn has one root');
    if (s.parentSpanId !== root.spanId)
      throw invalid(['turn', 'spans', i, 'parent_span_id'], 'must be the turn root (children are direct)');
    if (s.startNs < root.startNs || s.endNs > root.endNs)
      throw invalid(['turn', 'spans', i], "must start and end within the turn root's times");
  });
}

/** Each span's deterministic id, attributes, operation and conversation; the root's certificate. */
function checkSpans(turn: PyObject, spans: readonly CheckedSpan[]): void {
  const key = turn.logical_key as string;
  spans.forEach((s, i) => {
    const loc = ['turn', 'spans', i];
    const id = i === 0 ? historicalTurnId('root', key, 16) : historicalTurnId(`child:${i - 1}:${s.kind}`, key, 16);
    if (s.spanId !== id) throw invalid([...loc, 'span_id'], 'is not the deterministic id of its place and kind');
    const entries = Object.entries(s.attributes);
    if (entries.length > HISTORICAL_TURN.maxAttributes)
      throw invalid([...loc, 'attributes'], `${entries.length} attributes; at most ${HISTORICAL_TURN.maxAttributes}`);
    for (const [k, v] of entries) {
      if (Buffer.byteLength(k, 'utf8') > HISTORICAL_TURN.maxAttributeKeyBytes)
        throw invalid(
          [...loc, 'attributes', k.slice(0, 64)],
          `key longer than ${HISTORICAL_TURN.maxAttributeKeyBytes} bytes`,
        );
      if (k.startsWith(CERTIFICATE_PREFIX) && (i > 0 || !CERTIFICATE.includes(k)))
        throw invalid(
          [...loc, 'attributes', k],
          `the ${CERTIFICATE_PREFIX}* keys are reserved to the turn root's certificate`,
        );
      checkAttribute(v, [...loc, 'attributes', k]);
    }
    if (s.attributes['gen_ai.operation.name'] !== OPERATION[s.kind])
      throw invalid([...loc, 'attributes', 'gen_ai.operation.name'], `must be ${OPERATION[s.kind]} for kind ${s.kind}`);
    if (s.attributes['gen_ai.conversation.id'] !== turn.conversation_id)
      throw invalid([...loc, 'attributes', 'gen_ai.conversation.id'], "must be the envelope's conversation_id");
  });
  const root = spans[0]!.attributes;
  for (const k of CERTIFICATE) {
    const field = k.slice(CERTIFICATE_PREFIX.length);
    const expected = field === 'schema_version' ? (turn.schema_version ?? HISTORICAL_TURN.schemaVersion) : turn[field];
    if (root[k] !== expected) throw invalid(['turn', 'spans', 0, 'attributes', k], 'does not match the envelope');
  }
}

/** Canonical member texts of the model dump (defaults included); what each digest covers. */
function canonicalMembers(turn: PyObject, spans: readonly CheckedSpan[], traceIds: readonly PyValue[]) {
  const spanTree: PyValue[] = spans.map((s, i) => ({
    kind: s.kind,
    name: s.name,
    trace_id: traceIds[i]!,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    start_time_unix_nano: s.startNs,
    end_time_unix_nano: s.endNs,
    attributes: s.attributes,
  }));
  const model: Record<string, PyValue> = {
    ...turn,
    capability_version: turn.capability_version ?? HISTORICAL_TURN.capabilityVersion,
    schema_version: turn.schema_version ?? HISTORICAL_TURN.schemaVersion,
    producer: turn.producer ?? HISTORICAL_TURN.producer,
    reference_count: turn.reference_count ?? 0n,
    spans: spanTree,
  };
  try {
    return Object.entries(model).map(([k, v]) => [k, canonicalJson(v)] as const);
  } catch (err) {
    if (err instanceof NotCanonicalError) throw invalid(['turn'], `has no canonical JSON form: ${err.message}`);
    throw err;
  }
}

const without = (members: readonly (readonly [string, string])[], ...keys: string[]) =>
  canonicalObject(members.filter(([k]) => !keys.includes(k)));

/** The envelope as Python holds it; nesting deeper than the stack allows is the client's problem (400). */
function pythonTurn(req: HistoricalTurnUpsertReq): PyObject {
  try {
    return pythonValue(req.turn) as PyObject;
  } catch (err) {
    if (err instanceof RangeError) throw new InvalidRequestError('The historical turn is nested too deeply');
    throw err;
  }
}

/** Checks an upsert against Weave's rules (throws 412, 413 or 422); nothing is written before it passes. */
export function checkHistoricalTurn(req: HistoricalTurnUpsertReq, pathKey: string): CheckedTurn {
  if (pathKey !== req.turn.logical_key)
    throw new RequestValidationError([
      { loc: ['path', 'logical_key'], msg: "must be the envelope's logical_key", type: 'historical_turn_invalid' },
    ]);
  checkCapability(req);
  const turn = pythonTurn(req);
  const raw = turn.spans as PyObject[];
  const spans: CheckedSpan[] = raw.map((s, i) => ({
    kind: s.kind as HistoricalTurnSpanKind,
    name: s.name as string,
    spanId: s.span_id as string,
    parentSpanId: (s.parent_span_id ?? null) as string | null,
    startNs: nanos(s.start_time_unix_nano!, ['turn', 'spans', i, 'start_time_unix_nano']),
    endNs: nanos(s.end_time_unix_nano!, ['turn', 'spans', i, 'end_time_unix_nano']),
    attributes: (s.attributes ?? {}) as PyObject,
  }));
  const traceIds = raw.map((s) => s.trace_id!);
  checkTree(turn, spans, traceIds);
  if ((turn.reference_count ?? 0n) !== 0n)
    throw invalid(['turn', 'reference_count'], 'schema v1 does not support content references');
  if (turn.destination_project_id !== req.project_id)
    throw invalid(['turn', 'destination_project_id'], "must be the request's project_id");
  const key = turn.logical_key as string;
  if (key !== logicalKeyOf(req.project_id, turn.conversation_id as string, turn.turn_key as string))
    throw invalid(['turn', 'logical_key'], 'is not the sha256 of its destination project, conversation and turn key');
  if (turn.trace_id !== historicalTurnId('trace', key, 32))
    throw invalid(['turn', 'trace_id'], 'is not the deterministic trace id of its logical key');
  if (turn.root_span_id !== historicalTurnId('root', key, 16))
    throw invalid(['turn', 'root_span_id'], 'is not the deterministic root span id of its logical key');
  if (spans.length > HISTORICAL_TURN.maxSpans)
    throw invalid(['turn', 'spans'], `${spans.length} spans; at most ${HISTORICAL_TURN.maxSpans}`);
  checkSpans(turn, spans);
  const members = canonicalMembers(turn, spans, traceIds);
  const preview = without(members, 'wire_sha256', 'compressed_bytes', 'uncompressed_bytes', 'reference_count');
  if (turn.uncompressed_bytes !== BigInt(Buffer.byteLength(preview, 'utf8')))
    throw invalid(['turn', 'uncompressed_bytes'], 'does not match its canonical payload');
  if (turn.wire_sha256 !== sha256(without(members, 'wire_sha256')))
    throw invalid(['turn', 'wire_sha256'], 'does not match its canonical payload');
  const wireBytes = Buffer.byteLength(canonicalObject(members), 'utf8');
  if (wireBytes > HISTORICAL_TURN.maxEnvelopeBytes)
    throw new RequestTooLargeError(
      `historical turn is ${wireBytes} bytes; at most ${HISTORICAL_TURN.maxEnvelopeBytes}. Content is never truncated, and externalized content is not supported`,
    );
  return {
    projectId: req.project_id,
    logicalKey: key,
    wireSha256: turn.wire_sha256 as string,
    conversationId: turn.conversation_id as string,
    traceId: turn.trace_id as string,
    rootSpanId: turn.root_span_id as string,
    schemaVersion: (turn.schema_version ?? HISTORICAL_TURN.schemaVersion) as string,
    spans,
  };
}
