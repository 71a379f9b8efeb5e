// The write procedures of secrets (run by the writer, see sqlite/engine/writer.ts).
import type { SqliteDb } from '../engine/database.js';

export function secretWrites(db: SqliteDb) {
  const upsert = db.prepare(`
    INSERT INTO secrets (entity, name, sealed, created_at, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (entity, name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at,
      updated_by = excluded.updated_by`);
  const drop = db.prepare('DELETE FROM secrets WHERE entity = ? AND name = ?');
  return {
    'secrets.set'(entity: string, name: string, sealed: string, at: number, userId: string | null): void {
      upsert.run(entity, name, sealed, at, at, userId);
    },
    'secrets.delete'(entity: string, name: string): boolean {
      return drop.run(entity, name).changes > 0;
    },
  };
}
