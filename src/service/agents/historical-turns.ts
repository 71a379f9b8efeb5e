// Weave's historical-turn import (api/agents-history.ts): a checked envelope
// (historical-turn-check.ts) becomes agent span rows through the OTLP ingest's own mapping
// (ingest/genai/span-row.ts), written with SpanStore.write, so an imported turn reads, counts
// and rolls up as a turn sent over OTLP. Commit protocol (Weave's, storage/historical-turns/historical-turn-store.ts):
//   claim the key (a `committing` record with a lease) -> write the spans -> mark it `committed`.
// The same envelope again is `replayed` and writes nothing; another envelope for the key is a
// `conflict` and writes nothing; a claim whose attempt failed or died is taken over by the next
// attempt with the same envelope once its lease has passed (a span written again replaces
// itself, so finishing a half-done commit is exact). One process runs the attempts on one key
// one at a time (a lock per key), so a retry that arrives during its own first attempt waits for
// it and is `replayed`, rather than answered `committing`.
import {
  HISTORICAL_TURN,
  LOGICAL_KEY,
  type HistoricalTurnStatusRes,
  type HistoricalTurnUpsertReq,
  type HistoricalTurnUpsertRes,
} from '../../api/agents-history.js';
import { RequestValidationError } from '../../api/errors.js';
import { spanRow } from '../../ingest/genai/span-row.js';
import type { OtlpSpan } from '../../ingest/otlp/otlp-spans.js';
import type { SpanRow } from '../../query/span-columns.js';
import type {
  HistoricalTurnRecord,
  HistoricalTurnStore,
} from '../../storage/historical-turns/historical-turn-store.js';
import type { SpanStore } from '../../storage/spans/span-store.js';
import { nowMicros, type Micros } from '../../time.js';
import type { PyValue } from '../json/exact-json.js';
import { type CheckedTurn, checkHistoricalTurn, commitIdOf, storageRowKeyOf } from './historical-turn-check.js';

/** OTel SpanKind INTERNAL: what the SDKs' conversation spans are. */
const INTERNAL = 1;
/** The instrumentation scope of imported spans (the envelope carries none). */
const SCOPE = { name: 'weave.historical_turn', version: HISTORICAL_TURN.schemaVersion };
const LEASE_US = HISTORICAL_TURN.recoveryLeaseSeconds * 1_000_000;

/** An attribute as the span rows hold attributes (JSON values): ints as numbers. */
function jsValue(v: PyValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(jsValue);
  return v;
}

function spanRows(turn: CheckedTurn, wbUserId: string): SpanRow[] {
  return turn.spans.map((s) => {
    const span: OtlpSpan = {
      traceId: turn.traceId,
      spanId: s.spanId,
      parentSpanId: s.parentSpanId,
      traceState: '',
      name: s.name,
      kind: INTERNAL,
      startUs: Number(s.startNs / 1000n),
      endUs: Number(s.endNs / 1000n),
      attributes: Object.fromEntries(Object.entries(s.attributes).map(([k, v]) => [k, jsValue(v)])),
      events: [],
      links: [],
      status: { code: 0, message: '' },
      scope: SCOPE,
    };
    return spanRow(span, {}, { projectId: turn.projectId, wbUserId });
  });
}

const absent = (logicalKey: string): HistoricalTurnStatusRes => ({
  logical_key: logicalKey,
  status: 'absent',
  wire_sha256: null,
  commit_id: null,
  storage_row_key: null,
  trace_ids: [],
  root_span_ids: [],
  span_count: 0,
  last_error: null,
});

/** What a record proves, as Weave answers it (the storage row key once committed). */
const evidence = (r: HistoricalTurnRecord) => ({
  logical_key: r.logical_key,
  wire_sha256: r.wire_sha256,
  commit_id: r.commit_id,
  storage_row_key: r.status === 'committed' ? storageRowKeyOf(r.project_id, r.logical_key) : null,
  trace_ids: [r.trace_id],
  root_span_ids: [r.root_span_id],
  span_count: r.span_count,
});

export function createHistoricalTurnsService(
  spans: SpanStore,
  turns: HistoricalTurnStore,
  clock: () => Micros = nowMicros,
) {
  /** The tail of the attempts on each (project, logical key) of this process. */
  const tails = new Map<string, Promise<unknown>>();

  async function oneAtATime<T>(key: string, attempt: () => Promise<T>): Promise<T> {
    const run = (tails.get(key) ?? Promise.resolve()).then(attempt);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  }

  async function commit(turn: CheckedTurn, wbUserId: string): Promise<HistoricalTurnUpsertRes> {
    const now = clock();
    const wanted: HistoricalTurnRecord = {
      project_id: turn.projectId,
      logical_key: turn.logicalKey,
      wire_sha256: turn.wireSha256,
      status: 'committing',
      commit_id: commitIdOf(turn.projectId, turn.logicalKey),
      trace_id: turn.traceId,
      root_span_id: turn.rootSpanId,
      span_count: turn.spans.length,
      last_error: null,
      lease_until: now + LEASE_US,
      wb_user_id: wbUserId,
      created_at: now,
      updated_at: now,
    };
    const claim = await turns.claim(wanted, now);
    switch (claim.outcome) {
      case 'conflict':
        return {
          logical_key: turn.logicalKey,
          wire_sha256: turn.wireSha256,
          status: 'conflict',
          commit_id: null,
          storage_row_key: null,
          trace_ids: [],
          root_span_ids: [],
          span_count: 0,
          existing_wire_sha256: claim.record.wire_sha256,
        };
      case 'replayed':
      case 'busy':
        return {
          ...evidence(claim.record),
          status: claim.outcome === 'busy' ? 'committing' : 'replayed',
          existing_wire_sha256: null,
        };
      case 'acquired':
        break;
    }
    try {
      await spans.write(spanRows(turn, wbUserId));
    } catch (err) {
      // The key stays `committing`, free at once for the next attempt, which finishes the commit.
      const failed = { ...claim.record, last_error: 'commit_attempt_failed', lease_until: 0, updated_at: clock() };
      await turns.put([failed]).catch(() => undefined);
      throw err;
    }
    const committed: HistoricalTurnRecord = {
      ...claim.record,
      status: 'committed',
      last_error: null,
      lease_until: 0,
      updated_at: clock(),
    };
    await turns.put([committed]);
    return { ...evidence(committed), status: 'committed', existing_wire_sha256: null };
  }

  return {
    /** Checks the envelope (412, 413, 422 before anything is written), then commits it at most once. */
    async upsert(req: HistoricalTurnUpsertReq, pathKey: string, wbUserId: string): Promise<HistoricalTurnUpsertRes> {
      const turn = checkHistoricalTurn(req, pathKey);
      return oneAtATime(`${turn.projectId}\u0000${turn.logicalKey}`, () => commit(turn, wbUserId));
    },

    /** The record of a logical key, or `absent`. A `committing` one is finished by its next upsert. */
    async status(projectId: string, logicalKey: string): Promise<HistoricalTurnStatusRes> {
      if (!LOGICAL_KEY.test(logicalKey))
        throw new RequestValidationError([
          {
            loc: ['path', 'logical_key'],
            msg: 'must be 64 lower-case hex digits (a sha256)',
            type: 'string_pattern_mismatch',
          },
        ]);
      const r = await turns.get(projectId, logicalKey);
      if (r === null) return absent(logicalKey);
      return { ...evidence(r), status: r.status, last_error: r.last_error };
    },

    capabilities() {
      return {
        supported: true,
        capability_version: HISTORICAL_TURN.capabilityVersion,
        transport_encoding: 'canonical-json',
        content_encoding: 'identity',
        preview_compression: 'gzip-mtime-0',
        schema_versions: [HISTORICAL_TURN.schemaVersion],
        max_envelope_bytes: HISTORICAL_TURN.maxEnvelopeBytes,
        max_spans: HISTORICAL_TURN.maxSpans,
        max_logical_key_bytes: HISTORICAL_TURN.maxLogicalKeyBytes,
        // A turn's spans are one SpanStore.write: one transaction on SQLite, one insert on ClickHouse.
        atomic_turn_commit: true,
        durable_idempotency: true,
        status_lookup: true,
        content_refs: 'unsupported',
        recovery_lease_seconds: HISTORICAL_TURN.recoveryLeaseSeconds,
        reason: '',
      } as const;
    },
  };
}

export type HistoricalTurnsService = ReturnType<typeof createHistoricalTurnsService>;
