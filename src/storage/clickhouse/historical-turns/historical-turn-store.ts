// Historical-turn records on ClickHouse (engine/migrations/006): each change is a row with a
// higher seq and the newest row of a key is the record. A claim reads the record, then inserts
// what decideClaim grants: not atomic, so two replicas importing one key at the same moment
// could both be granted it (one process settles its imports one key at a time: the service
// holds a lock per key). Values reach SQL only as parameters.
import type { ClickHouseClient } from '@clickhouse/client';
import {
  decideClaim,
  type HistoricalTurnRecord,
  type HistoricalTurnStore,
} from '../../historical-turns/historical-turn-store.js';
import { selectRows } from '../engine/client.js';
import { chIdentifier } from '../engine/dialect.js';
import { seqClock } from '../engine/seq-clock.js';

const PAGE = 1000;
const COLUMNS = `project_id, logical_key, wire_sha256, status, commit_id, trace_id, root_span_id, span_count,
  last_error, lease_until, wb_user_id, created_at, updated_at`;
const NUMBERS = ['span_count', 'lease_until', 'created_at', 'updated_at'] as const;

/** A row as JSONEachRow gives it (64-bit integers as text) as a record. */
function decoded(row: Record<string, unknown>): HistoricalTurnRecord {
  const out: Record<string, unknown> = { ...row };
  for (const c of NUMBERS) out[c] = Number(row[c]);
  return out as unknown as HistoricalTurnRecord;
}

export function createClickHouseHistoricalTurnStore(client: ClickHouseClient, database: string): HistoricalTurnStore {
  const table = `${chIdentifier(database)}.historical_turns`;
  const nextSeq = seqClock().next;
  const put = async (records: readonly HistoricalTurnRecord[]) => {
    if (records.length === 0) return;
    await client.insert({ table, values: records.map((r) => ({ ...r, seq: nextSeq() })), format: 'JSONEachRow' });
  };
  const get = async (projectId: string, logicalKey: string) => {
    const rows = await selectRows<Record<string, unknown>>(
      client,
      `SELECT ${COLUMNS} FROM ${table} WHERE project_id = {p:String} AND logical_key = {k:String} ORDER BY seq DESC LIMIT 1`,
      { p: projectId, k: logicalKey },
    );
    return rows[0] === undefined ? null : decoded(rows[0]);
  };
  return {
    get,
    put,
    async claim(wanted, now) {
      const claim = decideClaim(await get(wanted.project_id, wanted.logical_key), wanted, now);
      if (claim.outcome === 'acquired') await put([claim.record]);
      return claim;
    },
    async *all(projectId) {
      for (let after = ''; ; ) {
        const rows = await selectRows<Record<string, unknown>>(
          client,
          `SELECT ${COLUMNS} FROM ${table} FINAL WHERE project_id = {p:String} AND logical_key > {a:String}
           ORDER BY logical_key LIMIT {l:Int64}`,
          { p: projectId, a: after, l: PAGE },
        );
        if (rows.length === 0) return;
        yield rows.map(decoded);
        after = String(rows[rows.length - 1]!.logical_key);
      }
    },
  };
}
