// Counts the rows of a test app's files tables, in whichever engine holds them: files
// published, chunks stored, and uploads still staged (SQLite: file_uploads rows; ClickHouse:
// blobs whose chunks no files row points at).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { SQLITE_FILE } from '../../src/storage/sqlite/store.js';
import { selectRows } from '../../src/storage/clickhouse/engine/client.js';
import { chdbClient, clickhouseDatabase } from './clickhouse-engine.js';
import type { TestApp } from './test-app.js';

export async function fileTableCounts(
  t: Pick<TestApp, 'dataDir' | 'store'>,
): Promise<{ files: number; chunks: number; staged: number }> {
  const ch = clickhouseDatabase(t.store);
  if (ch !== null) {
    const [r] = await selectRows<{ files: string; chunks: string; staged: string }>(
      chdbClient(),
      `SELECT
      (SELECT count() FROM ${ch}.files) AS files, (SELECT count() FROM ${ch}.file_chunks) AS chunks,
      (SELECT uniqExact(blob_id) FROM ${ch}.file_chunks WHERE blob_id NOT IN (SELECT blob_id FROM ${ch}.files)) AS staged`,
    );
    return { files: Number(r!.files), chunks: Number(r!.chunks), staged: Number(r!.staged) };
  }
  const db = new Database(join(t.dataDir, SQLITE_FILE), { readonly: true });
  try {
    const n = (table: 'files' | 'file_chunks' | 'file_uploads') =>
      db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
    return { files: n('files'), chunks: n('file_chunks'), staged: n('file_uploads') };
  } finally {
    db.close();
  }
}
