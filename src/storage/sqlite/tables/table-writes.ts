// The write procedure of tables (run by the writer inside its transaction, see
// sqlite/engine/writer.ts): a table and its new rows in one step, or nothing when a row it lists
// is missing. Layout and its reasons: sqlite/tables/table-schema.ts.
import type { TableRowInput } from '../../tables/table-store.js';
import type { SqliteDb } from '../engine/database.js';

export const FIND_TABLE = 'SELECT id FROM tables WHERE project_id = ? AND digest = ?';

/** Thrown inside the procedure to roll its savepoint back when rows are missing. */
class MissingRows extends Error {
  constructor(readonly digests: string[]) {
    super('missing rows');
  }
}

export function tableWrites(db: SqliteDb) {
  const findTable = db.prepare(FIND_TABLE).pluck();
  const insertRow = db.prepare(`INSERT INTO table_rows (project_id, digest, val, size_bytes) VALUES (?, ?, ?, ?)
    ON CONFLICT (project_id, digest) DO NOTHING`);
  const insertTable = db.prepare('INSERT INTO tables (project_id, digest, row_count, created_at) VALUES (?, ?, ?, ?)');
  // json_each first (CROSS JOIN fixes the loop order): one index probe per position.
  const insertEntries = db.prepare(`INSERT INTO table_entries (table_id, position, row_id)
    SELECT ?, e.key, r.id FROM json_each(?) AS e CROSS JOIN table_rows AS r WHERE r.project_id = ? AND r.digest = e.value`);
  const missingRows = db
    .prepare(`SELECT e.value FROM json_each(?) AS e
    WHERE NOT EXISTS (SELECT 1 FROM table_rows AS r WHERE r.project_id = ? AND r.digest = e.value) ORDER BY e.key`)
    .pluck();

  const put = db.transaction(
    (projectId: string, digest: string, rowDigests: readonly string[], newRows: readonly TableRowInput[]) => {
      if (findTable.get(projectId, digest) !== undefined) return;
      // Canonical JSON is pure ASCII (ensure_ascii), so its length is its size in bytes.
      for (const r of newRows) insertRow.run(projectId, r.digest, r.val, r.val.length);
      const tableId = insertTable.run(projectId, digest, rowDigests.length, Date.now() * 1000).lastInsertRowid;
      const list = JSON.stringify(rowDigests);
      if (insertEntries.run(tableId, list, projectId).changes !== rowDigests.length) {
        throw new MissingRows([...new Set(missingRows.all(list, projectId) as string[])]);
      }
    },
  );

  return {
    /** Stores the table unless it exists; `missing` lists the row digests neither stored nor sent (then nothing is written). */
    'tables.put'(
      projectId: string,
      digest: string,
      rowDigests: readonly string[],
      newRows: readonly TableRowInput[],
    ): { missing: string[] } {
      try {
        put(projectId, digest, rowDigests, newRows);
        return { missing: [] };
      } catch (e) {
        if (e instanceof MissingRows) return { missing: e.digests };
        throw e;
      }
    },
  };
}
