// The write procedure of per-project settings (run by the writer, see sqlite/engine/writer.ts).
import type { SqliteDb } from '../engine/database.js';

export function settingsWrites(db: SqliteDb) {
  const upsert = db.prepare(`
    INSERT INTO project_settings (project_id, retention_days, updated_at, updated_by) VALUES (?, ?, ?, ?)
    ON CONFLICT (project_id) DO UPDATE SET retention_days = excluded.retention_days,
      updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
  return {
    'projects.setRetention'(projectId: string, days: number | null, at: number, userId: string | null): void {
      upsert.run(projectId, days, at, userId);
    },
  };
}
