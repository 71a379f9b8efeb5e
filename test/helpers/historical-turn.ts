// Historical-turn envelopes as Weave's Python SDK prepares them (weave/conversation/historical_turn.py
// prepare_turn): deterministic ids, the root's certificate, the size preview and wire_sha256 over
// Python's canonical JSON. Written apart from Weft's own code, so the tests check the server
// against the formulas rather than against itself. Python's ints are bigint here, and a float that
// Python writes with `.0` is a PyFloat.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

export class PyFloat {
  constructor(readonly value: number) {}
}
export type Py = null | boolean | string | bigint | number | PyFloat | Py[] | { [key: string]: Py };

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Python's repr of a float in the plain range the tests use (0.0001 up to 1e16). */
function floatText(v: number): string {
  const s = String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False) for the tests' values. */
export function pyJson(v: Py): string {
  if (v === null) return 'null';
  if (v instanceof PyFloat) return floatText(v.value);
  switch (typeof v) {
    case 'boolean':
      return String(v);
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isInteger(v) ? String(v) : floatText(v);
    case 'string':
      return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(pyJson).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${pyJson(v[k]!)}`).join(',')}}`;
}

export const logicalKeyOf = (projectId: string, conversationId: string, turnKey: string) =>
  sha256(`hivemind-weave-turn-v1\u0000${projectId}\u0000${conversationId}\u0000${turnKey}`);

export function turnId(domain: string, logicalKey: string, hex: number): string {
  const id = sha256(`weave-historical-turn-id-v1\u0000${domain}\u0000${logicalKey}`).slice(0, hex);
  return /^0+$/.test(id) ? `${'0'.repeat(hex - 1)}1` : id;
}

export interface ChildInput {
  readonly kind: 'llm' | 'tool' | 'subagent';
  readonly name: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Record<string, Py>;
}

export interface TurnInput {
  readonly projectId: string;
  readonly conversationId: string;
  readonly turnKey: string;
  readonly agentName: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** The root's attributes besides operation, agent, conversation and certificate. */
  readonly attributes?: Record<string, Py>;
  readonly children?: readonly ChildInput[];
  readonly sourcePayload?: string;
}

export type Envelope = { [key: string]: Py } & { spans: { [key: string]: Py }[] };

/** A deep copy that keeps PyFloat values (structuredClone would make them plain objects). */
export function cloned<T extends Py>(v: T): T {
  if (v === null || typeof v !== 'object' || v instanceof PyFloat) return v;
  if (Array.isArray(v)) return v.map(cloned) as T;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cloned(x)])) as T;
}

/** Recomputes the size preview and wire_sha256 after an edit (as prepare_turn computes them). */
export function sealed(turn: Envelope): Envelope {
  const { wire_sha256: _w, compressed_bytes: _c, uncompressed_bytes: _u, reference_count: _r, ...preview } = turn;
  const wire = Buffer.from(pyJson(preview), 'utf8');
  const sized: Envelope = {
    ...turn,
    compressed_bytes: BigInt(gzipSync(wire, { level: 9 }).length),
    uncompressed_bytes: BigInt(wire.length),
  };
  const { wire_sha256: _x, ...hashed } = sized;
  return { ...sized, wire_sha256: sha256(pyJson(hashed)) };
}

export function prepareTurn(input: TurnInput): Envelope {
  const key = logicalKeyOf(input.projectId, input.conversationId, input.turnKey);
  const traceId = turnId('trace', key, 32);
  const rootId = turnId('root', key, 16);
  const sourceSha = sha256(input.sourcePayload ?? `source of ${input.turnKey}`);
  const conv = { 'gen_ai.conversation.id': input.conversationId };
  const root = {
    kind: 'turn',
    name: `invoke_agent ${input.agentName}`,
    trace_id: traceId,
    span_id: rootId,
    parent_span_id: null,
    start_time_unix_nano: input.startNs,
    end_time_unix_nano: input.endNs,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': input.agentName,
      ...conv,
      ...input.attributes,
      'historical_turn.logical_key': key,
      'historical_turn.turn_key': input.turnKey,
      'historical_turn.source_payload_sha256': sourceSha,
      'historical_turn.schema_version': '1',
    },
  };
  const operation = { llm: 'chat', tool: 'execute_tool', subagent: 'invoke_agent' } as const;
  const children = (input.children ?? []).map((c, i) => ({
    kind: c.kind,
    name: c.name,
    trace_id: traceId,
    span_id: turnId(`child:${i}:${c.kind}`, key, 16),
    parent_span_id: rootId,
    start_time_unix_nano: c.startNs,
    end_time_unix_nano: c.endNs,
    attributes: { 'gen_ai.operation.name': operation[c.kind], ...conv, ...c.attributes },
  }));
  const spans = [root, ...children];
  return sealed({
    capability_version: 'historical-turn-v1',
    schema_version: '1',
    producer: 'weave-python',
    logical_key: key,
    turn_key: input.turnKey,
    source_payload_sha256: sourceSha,
    wire_sha256: '0'.repeat(64),
    compressed_bytes: 0n,
    uncompressed_bytes: 0n,
    reference_count: 0n,
    destination_project_id: input.projectId,
    conversation_id: input.conversationId,
    trace_id: traceId,
    root_span_id: rootId,
    spans,
    span_count: BigInt(spans.length),
  });
}

/** The envelope with JSON.stringify's values: ints as numbers, those past 2^53 (times) as digit texts. */
export function jsonSafe(v: Py): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof PyFloat || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(jsonSafe);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
}

/** The PUT body the SDK sends (HistoricalTurnUpsertReq.model_dump(mode="json")), as JSON text. */
export const upsertBody = (projectId: string, turn: Envelope, extra: Record<string, Py> = {}) =>
  pyJson({ project_id: projectId, capability_version: 'historical-turn-v1', turn, wb_user_id: null, ...extra });
