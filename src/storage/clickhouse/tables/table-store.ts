// The ClickHouse TableStore (clickhouse/engine/migrations.ts): no transactions, so a table is
// written rows first, entries next and its tables row last; readers go through the tables
// row, so they never see a table whose rows are not all there. Rows and entries written
// twice by racing writers are identical and read once (any() / LIMIT 1 BY).
import type { ClickHouseClient } from '@clickhouse/client';
import type { FieldRef } from '../../../query/plan.js';
import type { StoredTableRow, TableRowsQuery, TableStats, TableStore } from '../../tables/table-store.js';
import { selectRows } from '../engine/client.js';
import { ChParams, chIdentifier, chJsonField, printChOrderBy, type ChField } from '../engine/dialect.js';
import { digestBytes, digestsOf } from '../engine/digest-stats.js';

/** Rows per chunk queryRows yields. */
const CHUNK_ROWS = 1000;
/** Positions read per query in table order (a query costs tens of ms in chdb whatever its size). */
const WINDOW_ROWS = 10_000;

function printTableField(field: FieldRef, params: ChParams): ChField {
  if (field.kind === 'json' && field.column === 'val') return chJsonField('r.v', field.path, params);
  throw new Error(`not a table row field: ${JSON.stringify(field)}`);
}

export function createClickHouseTableStore(client: ClickHouseClient, database: string): TableStore {
  const db = chIdentifier(database);
  const rowsT = `${db}.table_rows`;
  const entriesT = `${db}.table_entries`;
  const tablesT = `${db}.tables`;

  const exists = async (projectId: string, digest: string) =>
    (
      await selectRows(
        client,
        `SELECT 1 FROM ${tablesT} WHERE project_id = {p:String} AND digest = {d:String} LIMIT 1`,
        { p: projectId, d: digest },
      )
    ).length > 0;

  async function storedDigests(projectId: string, digests: readonly string[]): Promise<Set<string>> {
    if (digests.length === 0) return new Set();
    const rows = await selectRows<{ digest: string }>(
      client,
      `SELECT DISTINCT digest FROM ${rowsT} WHERE project_id = {p:String} AND digest IN (SELECT arrayJoin({ds:Array(String)}))`,
      { p: projectId, ds: [...new Set(digests)] },
    );
    return new Set(rows.map((r) => r.digest));
  }

  /** One table's rows (position, digest, val), entries deduplicated, rows joined once. */
  function rowsSql(q: TableRowsQuery, params: ChParams, extraWhere: string): string {
    const p = params.add(q.projectId, 'String');
    const d = params.add(q.digest, 'String');
    const filter =
      q.rowDigests === null
        ? ''
        : ` AND row_digest IN (SELECT arrayJoin(${params.add(q.rowDigests, 'Array(String)')}))`;
    // Aliases differ from column names: ClickHouse would read an alias named like a column
    // in the WHERE of the same SELECT.
    return `SELECT e.position AS position, e.rd AS digest, r.v AS val
      FROM (SELECT position, any(row_digest) AS rd FROM ${entriesT} WHERE project_id = ${p} AND table_digest = ${d}${filter}${extraWhere} GROUP BY position) AS e
      INNER JOIN (SELECT digest AS dg, any(val) AS v FROM ${rowsT} WHERE project_id = ${p}
        AND digest IN (SELECT row_digest FROM ${entriesT} WHERE project_id = ${p} AND table_digest = ${d}${filter}${extraWhere}) GROUP BY digest) AS r ON r.dg = e.rd`;
  }

  async function* queryRows(q: TableRowsQuery): AsyncGenerator<readonly StoredTableRow[]> {
    if (!(await exists(q.projectId, q.digest))) return;
    const toRow = (r: { position: string; digest: string; val: string }): StoredTableRow => ({
      digest: r.digest,
      val: r.val,
      original_index: Number(r.position),
    });
    if (q.sort.length === 0 && q.rowDigests === null) {
      // Table order: windows of positions, so memory is bounded by a window, not the table.
      let from = q.offset ?? 0;
      let left = q.limit ?? Infinity;
      while (left > 0) {
        const params = new ChParams();
        const take = Math.min(WINDOW_ROWS, left);
        const sql = `${rowsSql(q, params, ` AND position >= ${params.add(from, 'Int64')} AND position < ${params.add(from + take, 'Int64')}`)} ORDER BY position`;
        const rows = await selectRows<{ position: string; digest: string; val: string }>(client, sql, params.values);
        if (rows.length === 0) return;
        for (let i = 0; i < rows.length; i += CHUNK_ROWS) yield rows.slice(i, i + CHUNK_ROWS).map(toRow);
        if (rows.length < take) return;
        from += take;
        left -= take;
      }
      return;
    }
    const params = new ChParams();
    const order = printChOrderBy(q.sort, printTableField, params);
    let sql = `${rowsSql(q, params, '')} ${order ? `${order}, position ASC` : 'ORDER BY position ASC'}`;
    if (q.limit !== null) sql += ` LIMIT ${params.add(q.limit, 'Int64')}`;
    if (q.offset !== null && q.offset > 0) sql += ` OFFSET ${params.add(q.offset, 'Int64')}`;
    const rows = await selectRows<{ position: string; digest: string; val: string }>(client, sql, params.values);
    for (let i = 0; i < rows.length; i += CHUNK_ROWS) yield rows.slice(i, i + CHUNK_ROWS).map(toRow);
  }

  return {
    async putTable(projectId, digest, rowDigests, newRows) {
      if (await exists(projectId, digest)) return { missing: [] };
      const stored = await storedDigests(projectId, [...rowDigests, ...newRows.map((r) => r.digest)]);
      const sent = new Set(newRows.map((r) => r.digest));
      const missing = [...new Set(rowDigests.filter((d) => !stored.has(d) && !sent.has(d)))];
      if (missing.length > 0) return { missing };
      const fresh = new Map<string, string>();
      for (const r of newRows) if (!stored.has(r.digest)) fresh.set(r.digest, r.val);
      if (fresh.size > 0)
        await client.insert({
          table: rowsT,
          values: [...fresh].map(([d, val]) => ({ project_id: projectId, digest: d, val, size_bytes: val.length })),
          format: 'JSONEachRow',
        });
      if (rowDigests.length > 0) {
        await client.insert({
          table: entriesT,
          values: rowDigests.map((d, position) => ({
            project_id: projectId,
            table_digest: digest,
            position,
            row_digest: d,
          })),
          format: 'JSONEachRow',
        });
      }
      await client.insert({
        table: tablesT,
        values: [{ project_id: projectId, digest, row_count: rowDigests.length, created_at: Date.now() * 1000 }],
        format: 'JSONEachRow',
      });
      return { missing: [] };
    },

    async getTableRowDigests(projectId, tableDigest) {
      if (!(await exists(projectId, tableDigest))) return null;
      const rows = await selectRows<{ rd: string }>(
        client,
        `SELECT any(row_digest) AS rd FROM ${entriesT} WHERE project_id = {p:String} AND table_digest = {d:String} GROUP BY position ORDER BY position`,
        { p: projectId, d: tableDigest },
      );
      return rows.map((r) => r.rd);
    },

    async getRows(projectId, rowDigests) {
      const out = new Map<string, string>();
      if (rowDigests.length === 0) return out;
      const rows = await selectRows<{ digest: string; val: string }>(
        client,
        `SELECT digest, any(val) AS val FROM ${rowsT} WHERE project_id = {p:String} AND digest IN (SELECT arrayJoin({ds:Array(String)})) GROUP BY digest`,
        { p: projectId, ds: [...new Set(rowDigests)] },
      );
      for (const r of rows) out.set(r.digest, r.val);
      return out;
    },

    queryRows,

    async stats(projectId, digests, includeStorageSize): Promise<TableStats[]> {
      if (digests.length === 0) return [];
      const found = new Map(
        (
          await selectRows<{ digest: string; n: string }>(
            client,
            `SELECT digest, any(row_count) AS n FROM ${tablesT} WHERE project_id = {p:String} AND digest IN (SELECT arrayJoin({ds:Array(String)})) GROUP BY digest`,
            { p: projectId, ds: [...new Set(digests)] },
          )
        ).map((t) => [t.digest, Number(t.n)]),
      );
      const sizes = new Map<string, number>();
      if (includeStorageSize && found.size > 0) {
        const rows = await selectRows<{ d: string; bytes: string }>(
          client,
          `SELECT e.table_digest AS d, sum(r.size_bytes) AS bytes
          FROM (SELECT table_digest, position, any(row_digest) AS rd FROM ${entriesT} WHERE project_id = {p:String} AND table_digest IN (SELECT arrayJoin({ds:Array(String)})) GROUP BY table_digest, position) AS e
          INNER JOIN (SELECT digest AS dg, any(size_bytes) AS size_bytes FROM ${rowsT} WHERE project_id = {p:String} GROUP BY digest) AS r ON r.dg = e.rd GROUP BY d`,
          { p: projectId, ds: [...found.keys()] },
        );
        for (const r of rows) sizes.set(r.d, Number(r.bytes));
      }
      return digests.flatMap((digest) => {
        const count = found.get(digest);
        if (count === undefined) return [];
        return [{ digest, count, storage_size_bytes: includeStorageSize ? (sizes.get(digest) ?? 0) : null }];
      });
    },

    totalSize: (projectId) => digestBytes(client, rowsT, projectId),
    digests: (projectId) => digestsOf(client, tablesT, projectId),
  };
}
