// Tables on SQLite (layout and its reasons: sqlite/tables/table-schema.ts). A table is written by
// the writer (sqlite/tables/table-writes.ts, acknowledged after commit); lists travel as one
// JSON-array parameter read with json_each, so the SQL text is fixed whatever the list length.
// Rows are streamed in chunks from the reader threads (sqlite/engine/read-threads.ts), so a 100k-row
// table never sits in memory and a sorted read of it never stalls other requests.
import type { FieldRef } from '../../../query/plan.js';
import type { StoredTableRow, TableRowsQuery, TableStats, TableStore } from '../../tables/table-store.js';
import type { SqliteDb } from '../engine/database.js';
import {
  joinSql,
  param,
  printSqliteOrderBy,
  sql,
  sqliteJsonField,
  type FieldSql,
  type SqlFragment,
} from '../engine/dialect.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { FIND_TABLE } from './table-writes.js';
import type { SqliteWriter } from '../engine/writer.js';

/** Rows per chunk of queryRows (one round trip to a reader thread each). */
const CHUNK_ROWS = 500;
const IN_JSON_LIST = 'IN (SELECT value FROM json_each(?))';

/** Sort fields of table rows: only paths into the row value (an allow-list of one column). */
function printTableField(field: FieldRef): FieldSql {
  if (field.kind === 'json' && field.column === 'val') return sqliteJsonField('r.val', field.path);
  throw new Error(`not a table row field: ${JSON.stringify(field)}`);
}

const fragment = (text: string, params: unknown[] = []): SqlFragment => ({ sql: text, params });

/**
 * SELECT position, digest, val of one table's rows. Table order with no filter reads the
 * entries' primary key in order (an offset becomes a position bound, no scan); otherwise
 * the dialect's ORDER BY (present first, numbers, text; NULLs last) with position as the
 * final tie-break, and LIMIT / OFFSET.
 */
export function buildTableRowsSelect(tableId: number, q: TableRowsQuery): SqlFragment {
  const where: SqlFragment[] = [sql`e.table_id = ${param(tableId)}`];
  if (q.rowDigests !== null) where.push(fragment(`r.digest ${IN_JSON_LIST}`, [JSON.stringify(q.rowDigests)]));
  const tableOrder = q.sort.length === 0 && q.rowDigests === null;
  let offset = q.offset ?? 0;
  if (tableOrder && offset > 0) {
    where.push(sql`e.position >= ${param(offset)}`);
    offset = 0;
  }
  const sorted = printSqliteOrderBy(q.sort, printTableField);
  const order = sorted.sql === '' ? fragment('ORDER BY e.position ASC') : sql`${sorted}, e.position ASC`;
  const page = sql`LIMIT ${param(q.limit ?? -1)} OFFSET ${param(offset)}`;
  return sql`SELECT e.position, r.digest, r.val FROM table_entries AS e JOIN table_rows AS r ON r.id = e.row_id
    WHERE ${joinSql(where, ' AND ')} ${order} ${page}`;
}

export function createSqliteTableStore(db: SqliteDb, reads: ReadThreads, writer: SqliteWriter): TableStore {
  const findTable = db.prepare(FIND_TABLE).pluck();
  const rowDigestsOf = db
    .prepare(`SELECT r.digest FROM table_entries AS e JOIN table_rows AS r ON r.id = e.row_id
    WHERE e.table_id = ? ORDER BY e.position`)
    .pluck();
  const rowsByDigest = db
    .prepare(`SELECT digest, val FROM table_rows WHERE project_id = ? AND digest ${IN_JSON_LIST}`)
    .raw();
  const tablesByDigest = db.prepare(
    `SELECT id, digest, row_count FROM tables WHERE project_id = ? AND digest ${IN_JSON_LIST}`,
  );
  const storageSize = db
    .prepare(`SELECT COALESCE(SUM(r.size_bytes), 0) FROM table_entries AS e JOIN table_rows AS r ON r.id = e.row_id
    WHERE e.table_id = ?`)
    .pluck();

  async function* queryRows(q: TableRowsQuery): AsyncGenerator<readonly StoredTableRow[]> {
    const tableId = findTable.get(q.projectId, q.digest) as number | undefined;
    if (tableId === undefined) return;
    const select = buildTableRowsSelect(tableId, q);
    for await (const rows of reads.stream<[number, string, string]>(select.sql, select.params, CHUNK_ROWS, {
      raw: true,
    })) {
      yield rows.map(([position, digest, val]) => ({ digest, val, original_index: position }));
    }
  }

  return {
    putTable: (projectId, digest, rowDigests, newRows) =>
      writer.run('tables.put', [projectId, digest, rowDigests, newRows]),
    async getTableRowDigests(projectId, tableDigest) {
      const tableId = findTable.get(projectId, tableDigest) as number | undefined;
      return tableId === undefined ? null : (rowDigestsOf.all(tableId) as string[]);
    },
    async getRows(projectId, rowDigests) {
      const out = new Map<string, string>();
      if (rowDigests.length === 0) return out;
      for (const [digest, val] of rowsByDigest.all(projectId, JSON.stringify(rowDigests)) as [string, string][])
        out.set(digest, val);
      return out;
    },
    queryRows,
    async stats(projectId, digests, includeStorageSize): Promise<TableStats[]> {
      if (digests.length === 0) return [];
      const found = new Map<string, { id: number; row_count: number }>();
      for (const t of tablesByDigest.all(projectId, JSON.stringify(digests)) as {
        id: number;
        digest: string;
        row_count: number;
      }[]) {
        found.set(t.digest, t);
      }
      const sizes = new Map<number, number>();
      const sizeOf = (id: number) => sizes.get(id) ?? sizes.set(id, storageSize.get(id) as number).get(id)!;
      return digests.flatMap((digest) => {
        const t = found.get(digest);
        if (!t) return [];
        return [{ digest, count: t.row_count, storage_size_bytes: includeStorageSize ? sizeOf(t.id) : null }];
      });
    },
    async totalSize(projectId) {
      const [row] = await reads.all<{ bytes: number }>(
        'SELECT COALESCE(SUM(size_bytes), 0) AS bytes FROM table_rows WHERE project_id = ?',
        [projectId],
      );
      return row!.bytes;
    },
    async digests(projectId) {
      return (await reads.all<{ digest: string }>('SELECT digest FROM tables WHERE project_id = ?', [projectId])).map(
        (r) => r.digest,
      );
    },
  };
}
