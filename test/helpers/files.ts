// Reads the rows of the files tables straight from a test app's database file.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { SQLITE_FILE } from '../../src/storage/sqlite/sqlite-store.js';

export function fileTableCounts(dataDir: string): { files: number; chunks: number; staged: number } {
  const db = new Database(join(dataDir, SQLITE_FILE), { readonly: true });
  try {
    const n = (table: 'files' | 'file_chunks' | 'file_uploads') => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
    return { files: n('files'), chunks: n('file_chunks'), staged: n('file_uploads') };
  } finally {
    db.close();
  }
}
