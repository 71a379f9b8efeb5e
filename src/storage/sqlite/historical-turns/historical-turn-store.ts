// Historical-turn records on SQLite: the `historical_turns` table (engine/migrations/013).
// Reads here, writes through the writer (historical-turn-writes.ts).
import type { HistoricalTurnRecord, HistoricalTurnStore } from '../../historical-turns/historical-turn-store.js';
import type { SqliteDb } from '../engine/database.js';
import type { SqliteWriter } from '../engine/writer.js';
import { SELECT_HISTORICAL_TURN } from './historical-turn-writes.js';

const PAGE = 1000;

export function createSqliteHistoricalTurnStore(db: SqliteDb, writer: SqliteWriter): HistoricalTurnStore {
  const read = db.prepare(`${SELECT_HISTORICAL_TURN} WHERE project_id = ? AND logical_key = ?`);
  const page = db.prepare(
    `${SELECT_HISTORICAL_TURN} WHERE project_id = ? AND logical_key > ? ORDER BY logical_key LIMIT ${PAGE}`,
  );
  return {
    async get(projectId, logicalKey) {
      return (read.get(projectId, logicalKey) as HistoricalTurnRecord | undefined) ?? null;
    },
    claim: (wanted, now) => writer.run('historicalTurns.claim', [wanted, now]),
    async put(records) {
      if (records.length > 0) await writer.run('historicalTurns.put', [records]);
    },
    async *all(projectId) {
      for (let after = ''; ; ) {
        const rows = page.all(projectId, after) as HistoricalTurnRecord[];
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1]!.logical_key;
      }
    },
  };
}
