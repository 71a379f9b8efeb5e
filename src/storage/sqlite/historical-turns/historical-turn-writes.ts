// The write procedures of historical-turn records (run by the writer inside its transaction, see
// sqlite/engine/writer.ts). A claim reads the stored record and stores what decideClaim grants
// in the same transaction, so two attempts (or two processes) are never both granted a key.
import {
  decideClaim,
  type HistoricalTurnClaim,
  type HistoricalTurnRecord,
} from '../../historical-turns/historical-turn-store.js';
import type { SqliteDb } from '../engine/database.js';

export const HISTORICAL_TURN_COLUMNS = [
  'project_id',
  'logical_key',
  'wire_sha256',
  'status',
  'commit_id',
  'trace_id',
  'root_span_id',
  'span_count',
  'last_error',
  'lease_until',
  'wb_user_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof HistoricalTurnRecord)[];

export const SELECT_HISTORICAL_TURN = `SELECT ${HISTORICAL_TURN_COLUMNS.join(', ')} FROM historical_turns`;

export function historicalTurnWrites(db: SqliteDb) {
  const read = db.prepare(`${SELECT_HISTORICAL_TURN} WHERE project_id = ? AND logical_key = ?`);
  const upsert = db.prepare(
    `INSERT INTO historical_turns (${HISTORICAL_TURN_COLUMNS.join(', ')}) VALUES (${HISTORICAL_TURN_COLUMNS.map(() => '?').join(', ')})
     ON CONFLICT (project_id, logical_key) DO UPDATE SET ${HISTORICAL_TURN_COLUMNS.slice(2)
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
  );
  const put = (r: HistoricalTurnRecord) => upsert.run(HISTORICAL_TURN_COLUMNS.map((c) => r[c]));
  return {
    'historicalTurns.claim'(wanted: HistoricalTurnRecord, now: number): HistoricalTurnClaim {
      const stored = (read.get(wanted.project_id, wanted.logical_key) as HistoricalTurnRecord | undefined) ?? null;
      const claim = decideClaim(stored, wanted, now);
      if (claim.outcome === 'acquired') put(claim.record);
      return claim;
    },
    'historicalTurns.put'(records: readonly HistoricalTurnRecord[]): void {
      for (const r of records) put(r);
    },
  };
}
