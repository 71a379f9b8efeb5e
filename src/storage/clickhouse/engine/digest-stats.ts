// What the two content-addressed stores on ClickHouse (files, tables) answer alike: the bytes
// a project holds (each digest once, whatever its rows) and the digests it holds.
import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from './client.js';

/** Bytes of the project's distinct digests in `table` (which has project_id, digest, size_bytes). */
export async function digestBytes(client: ClickHouseClient, table: string, projectId: string): Promise<number> {
  const [row] = await selectRows<{ n: string }>(
    client,
    `SELECT sum(s) AS n FROM (SELECT any(size_bytes) AS s FROM ${table} WHERE project_id = {p:String} GROUP BY digest)`,
    { p: projectId },
  );
  return Number(row?.n ?? 0);
}

/** The project's distinct digests in `table`. */
export async function digestsOf(client: ClickHouseClient, table: string, projectId: string): Promise<string[]> {
  const rows = await selectRows<{ digest: string }>(
    client,
    `SELECT DISTINCT digest FROM ${table} WHERE project_id = {p:String}`,
    { p: projectId },
  );
  return rows.map((r) => r.digest);
}
