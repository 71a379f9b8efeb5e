// Every byte a test app stored, as text, for checks that a value (a secret) never reached
// storage: the SQLite files of its data directory (WAL included) and, on ClickHouse, every row
// of every table of its database.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chdbClient, clickhouseDatabase } from './clickhouse-engine.js';
import type { TestApp } from './test-app.js';

export async function storedText(t: TestApp): Promise<string> {
  const parts = readdirSync(t.dataDir)
    .filter((f) => f.startsWith('weft.sqlite'))
    .map((f) => readFileSync(join(t.dataDir, f)).toString('latin1'));
  const database = clickhouseDatabase(t.store);
  if (database !== null) {
    const client = chdbClient();
    const tables = (await (
      await client.query({
        query: "SELECT name FROM system.tables WHERE database = {db:String} AND engine NOT LIKE '%View'",
        query_params: { db: database },
        format: 'JSONEachRow',
      })
    ).json()) as { name: string }[];
    for (const { name } of tables) {
      const rows = await client.query({ query: `SELECT * FROM \`${database}\`.\`${name}\``, format: 'JSONEachRow' });
      parts.push(JSON.stringify(await rows.json()));
    }
  }
  return parts.join('\n');
}
