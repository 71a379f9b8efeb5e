// Per-project settings on SQLite: one row per project in project_settings.
import type { ProjectSettingsStore } from '../project-settings-store.js';
import type { SqliteDb } from './sqlite-database.js';

export function createSqliteProjectSettingsStore(db: SqliteDb): ProjectSettingsStore {
  const read = db.prepare('SELECT retention_days FROM project_settings WHERE project_id = ?').pluck();
  const upsert = db.prepare(`
    INSERT INTO project_settings (project_id, retention_days, updated_at, updated_by) VALUES (?, ?, ?, ?)
    ON CONFLICT (project_id) DO UPDATE SET retention_days = excluded.retention_days,
      updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
  return {
    async getRetentionDays(projectId) {
      const days = read.get(projectId) as number | null | undefined;
      return days ?? null;
    },
    async setRetentionDays(projectId, days, at, userId) {
      upsert.run(projectId, days, at, userId);
    },
  };
}
