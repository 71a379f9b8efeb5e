// Weave's historical-turn import (weave/trace_server/agents/types.py, historical_turn_validation.py):
// a completed turn prepared by the SDK (`weave.prepare_turn`) as one envelope with deterministic
// ids and a canonical digest, committed at most once per (project, logical_key):
//   PUT /agents/v1/historical-turns/{logical_key}: 201 committed, 200 replayed (the same envelope
//     again), 202 committing (another attempt holds the key), 409 conflict (a different envelope
//     holds it; the body names its digest); 412 capability mismatch, 413 too large, 422 invalid.
//   GET /agents/v1/historical-turns/{logical_key}?project_id=: what was committed, or `absent`.
//   GET /agents/v1/historical-turns/capabilities?project_id=: the contract and its limits.
// Request models are strict (extra keys are a 422), as Weave's are (extra="forbid").
import { Type, type Static } from 'typebox';
import { Nullable, ProjectId, SafeInteger, Strict } from './common.js';
import { DataList } from './limits.js';
import { defineRoute, type RouteSpec } from './route-spec.js';

const tag = 'Agents';

/** Weave's schema-v1 contract and hard limits (historical_turn_validation.py). */
export const HISTORICAL_TURN = {
  capabilityVersion: 'historical-turn-v1',
  schemaVersion: '1',
  producer: 'weave-python',
  maxEnvelopeBytes: 16 * 1024 * 1024,
  maxSpans: 512,
  maxLogicalKeyBytes: 64,
  maxAttributes: 256,
  maxAttributeKeyBytes: 512,
  /** How long a commit in progress holds its key before a retry may take it over. */
  recoveryLeaseSeconds: 30,
} as const;

const Hex = (n: number) => Type.String({ pattern: `^[0-9a-f]{${n}}$` });

/**
 * Nanoseconds since the Unix epoch (UTC), as Weave's int: a JSON integer (read digit for digit,
 * past 2^53 too) or its decimal digits as text. A date-time text is refused: it may carry no zone.
 */
const UnixNano = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 64 })], {
  description: 'Nanoseconds since the Unix epoch (UTC)',
});

export const HistoricalTurnSpanKind = Type.Union([
  Type.Literal('turn'),
  Type.Literal('llm'),
  Type.Literal('tool'),
  Type.Literal('subagent'),
]);
export type HistoricalTurnSpanKind = Static<typeof HistoricalTurnSpanKind>;

/** One span of the turn: the root (`turn`) first, then its direct children in order. */
export const HistoricalTurnSpan = Strict({
  kind: HistoricalTurnSpanKind,
  name: Type.String({ minLength: 1, maxLength: 512 }),
  trace_id: Hex(32),
  span_id: Hex(16),
  parent_span_id: Nullable(Hex(16)),
  start_time_unix_nano: UnixNano,
  end_time_unix_nano: UnixNano,
  /** OTel attributes: scalars or homogeneous scalar lists (checked by the service, Weave's rules). */
  attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

/** Weave's PreparedTurn; `wire_sha256` covers every other field, defaults included. */
export const PreparedTurn = Strict({
  capability_version: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  schema_version: Type.Optional(Type.Literal('1')),
  producer: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  logical_key: Hex(64),
  turn_key: Type.String({ minLength: 1, maxLength: 2048 }),
  source_payload_sha256: Hex(64),
  wire_sha256: Hex(64),
  compressed_bytes: SafeInteger({ minimum: 0 }),
  uncompressed_bytes: SafeInteger({ minimum: 0 }),
  reference_count: Type.Optional(SafeInteger({ minimum: 0 })),
  destination_project_id: Type.String({ minLength: 1, maxLength: 2048 }),
  conversation_id: Type.String({ minLength: 1, maxLength: 2048 }),
  trace_id: Hex(32),
  root_span_id: Hex(16),
  /** At most HISTORICAL_TURN.maxSpans (a 422 past it, as in Weave), within the body limit. */
  spans: DataList(HistoricalTurnSpan, { minItems: 1 }),
  span_count: SafeInteger({ minimum: 1 }),
});
export type PreparedTurn = Static<typeof PreparedTurn>;

export const HistoricalTurnUpsertReq = Strict({
  project_id: ProjectId,
  capability_version: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  turn: PreparedTurn,
  /** Sent by the SDK (usually null) and ignored: the spans carry the caller's user. */
  wb_user_id: Nullable(Type.String()),
});
export type HistoricalTurnUpsertReq = Static<typeof HistoricalTurnUpsertReq>;

export const HistoricalTurnUpsertStatus = Type.Union([
  Type.Literal('committed'),
  Type.Literal('replayed'),
  Type.Literal('committing'),
  Type.Literal('conflict'),
]);
export type HistoricalTurnUpsertStatus = Static<typeof HistoricalTurnUpsertStatus>;

/** The HTTP status of each outcome (Weave's RemoteHTTPTraceServer checks they agree). */
export const UPSERT_HTTP_STATUS: Readonly<Record<HistoricalTurnUpsertStatus, number>> = {
  committed: 201,
  replayed: 200,
  committing: 202,
  conflict: 409,
};

export const HistoricalTurnUpsertRes = Type.Object({
  logical_key: Type.String(),
  /** The digest of the envelope sent. */
  wire_sha256: Type.String(),
  status: HistoricalTurnUpsertStatus,
  commit_id: Type.Union([Type.String(), Type.Null()]),
  /** Names the committed turn; null while committing and on a conflict. */
  storage_row_key: Type.Union([Type.String(), Type.Null()]),
  trace_ids: Type.Array(Type.String()),
  root_span_ids: Type.Array(Type.String()),
  span_count: SafeInteger(),
  /** conflict only: the digest of the envelope that holds the key. */
  existing_wire_sha256: Type.Union([Type.String(), Type.Null()]),
});
export type HistoricalTurnUpsertRes = Static<typeof HistoricalTurnUpsertRes>;

export const HistoricalTurnStatusRes = Type.Object({
  logical_key: Type.String(),
  status: Type.Union([Type.Literal('absent'), Type.Literal('committing'), Type.Literal('committed')]),
  wire_sha256: Type.Union([Type.String(), Type.Null()]),
  commit_id: Type.Union([Type.String(), Type.Null()]),
  storage_row_key: Type.Union([Type.String(), Type.Null()]),
  trace_ids: Type.Array(Type.String()),
  root_span_ids: Type.Array(Type.String()),
  span_count: SafeInteger(),
  /** Why the last attempt of a commit still `committing` failed, when it did. */
  last_error: Type.Union([Type.String(), Type.Null()]),
});
export type HistoricalTurnStatusRes = Static<typeof HistoricalTurnStatusRes>;

export const HistoricalTurnCapabilitiesRes = Type.Object({
  supported: Type.Boolean(),
  capability_version: Type.Literal('historical-turn-v1'),
  transport_encoding: Type.Literal('canonical-json'),
  content_encoding: Type.Literal('identity'),
  preview_compression: Type.Literal('gzip-mtime-0'),
  schema_versions: Type.Array(Type.String()),
  max_envelope_bytes: SafeInteger(),
  max_spans: SafeInteger(),
  max_logical_key_bytes: SafeInteger(),
  atomic_turn_commit: Type.Boolean(),
  durable_idempotency: Type.Boolean(),
  status_lookup: Type.Boolean(),
  content_refs: Type.Literal('unsupported'),
  recovery_lease_seconds: SafeInteger(),
  reason: Type.String(),
});

/**
 * The logical key: sha256 of the turn's project, conversation and turn key (64 lower-case hex).
 * Its form is checked after the access check (a 422), so a caller without access learns nothing.
 */
export const HistoricalTurnParams = Type.Object({ logical_key: Type.String({ minLength: 1, maxLength: 256 }) });
export const LOGICAL_KEY = /^[0-9a-f]{64}$/;
export const HistoricalTurnQuery = Type.Object({ project_id: ProjectId });

const PATH = '/agents/v1/historical-turns';

export const historyRoutes = {
  agentHistoricalTurnUpsert: defineRoute({
    access: 'write',
    id: 'agents_historical_turn_upsert',
    method: 'PUT',
    path: `${PATH}/:logical_key`,
    params: HistoricalTurnParams,
    tag,
    summary:
      'Commit a prepared historical turn once: 201 committed, 200 replayed, 202 committing, 409 conflict ' +
      '(another envelope holds the logical key; nothing is written)',
    body: HistoricalTurnUpsertReq,
    response: HistoricalTurnUpsertRes,
    carriesData: true,
    errors: [400, 409, 412, 413],
  }),
  agentHistoricalTurnCapabilities: defineRoute({
    access: 'read',
    id: 'agents_historical_turn_capabilities',
    method: 'GET',
    path: `${PATH}/capabilities`,
    querystring: HistoricalTurnQuery,
    tag,
    summary: 'The historical-turn contract this server keeps, and its limits',
    body: undefined,
    response: HistoricalTurnCapabilitiesRes,
  }),
  agentHistoricalTurnStatus: defineRoute({
    access: 'read',
    id: 'agents_historical_turn_status',
    method: 'GET',
    path: `${PATH}/:logical_key`,
    params: HistoricalTurnParams,
    querystring: HistoricalTurnQuery,
    tag,
    summary: 'What was committed under a logical key, or `absent`',
    body: undefined,
    response: HistoricalTurnStatusRes,
  }),
} as const satisfies Record<string, RouteSpec>;
