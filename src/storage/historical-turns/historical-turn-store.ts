// The record of each historical turn imported (service/agents/historical-turns.ts), one per
// (project, logical_key): which envelope (wire_sha256) holds the key, whether its spans are
// committed, and the evidence the import answers with. The spans themselves are SpanStore's.
// Contracts every engine keeps:
//  - claim() decides with decideClaim() on the stored record, and stores the claim it grants
//    before it resolves; SQLite decides and stores in one transaction (two processes cannot both
//    be granted a key), ClickHouse reads then inserts (replicas racing on one key could both be).
//  - put() stores each record as given, replacing the record of its key.
import type { Micros } from '../../time.js';

export type HistoricalTurnState = 'committing' | 'committed';

export interface HistoricalTurnRecord {
  readonly project_id: string;
  readonly logical_key: string;
  readonly wire_sha256: string;
  readonly status: HistoricalTurnState;
  readonly commit_id: string;
  readonly trace_id: string;
  readonly root_span_id: string;
  readonly span_count: number;
  /** Why the last attempt of a commit still `committing` failed, when it did. */
  readonly last_error: string | null;
  /** Until when (µs) a commit in progress holds the key against another attempt; 0: it does not. */
  readonly lease_until: Micros;
  readonly wb_user_id: string | null;
  readonly created_at: Micros;
  readonly updated_at: Micros;
}

/**
 * acquired: the caller may write the turn (the claim stored is `record`); replayed: the same
 * envelope is committed; busy: the same envelope is being committed by another attempt whose
 * lease holds; conflict: another envelope holds the key (`record` is the stored one).
 */
export interface HistoricalTurnClaim {
  readonly outcome: 'acquired' | 'replayed' | 'busy' | 'conflict';
  readonly record: HistoricalTurnRecord;
}

/** The one rule of claims, shared by the engines: `wanted` is a `committing` record with its lease. */
export function decideClaim(
  stored: HistoricalTurnRecord | null,
  wanted: HistoricalTurnRecord,
  now: Micros,
): HistoricalTurnClaim {
  if (stored === null) return { outcome: 'acquired', record: wanted };
  const same =
    stored.wire_sha256 === wanted.wire_sha256 &&
    stored.trace_id === wanted.trace_id &&
    stored.root_span_id === wanted.root_span_id &&
    stored.span_count === wanted.span_count;
  if (!same) return { outcome: 'conflict', record: stored };
  if (stored.status === 'committed') return { outcome: 'replayed', record: stored };
  if (stored.lease_until > now) return { outcome: 'busy', record: stored };
  // An attempt that failed or died left the key `committing`: this one takes it over.
  return {
    outcome: 'acquired',
    record: { ...stored, lease_until: wanted.lease_until, last_error: null, updated_at: wanted.updated_at },
  };
}

export interface HistoricalTurnStore {
  get(projectId: string, logicalKey: string): Promise<HistoricalTurnRecord | null>;
  /** Claims `wanted.logical_key` for `wanted` (status `committing`) by decideClaim at `now`. */
  claim(wanted: HistoricalTurnRecord, now: Micros): Promise<HistoricalTurnClaim>;
  put(records: readonly HistoricalTurnRecord[]): Promise<void>;
  /** Every record of a project, in pages (for `weft copy`). */
  all(projectId: string): AsyncIterable<HistoricalTurnRecord[]>;
}
