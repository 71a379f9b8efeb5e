// Per-project settings on SQLite: one row per project in project_settings; written through
// the writer (sqlite/settings/settings-writes.ts).
import type { ProjectSettingsStore } from '../../settings/project-settings-store.js';
import type { SqliteDb } from '../engine/database.js';
import type { SqliteWriter } from '../engine/writer.js';

export function createSqliteProjectSettingsStore(db: SqliteDb, writer: SqliteWriter): ProjectSettingsStore {
  const read = db.prepare('SELECT retention_days FROM project_settings WHERE project_id = ?').pluck();
  return {
    async getRetentionDays(projectId) {
      const days = read.get(projectId) as number | null | undefined;
      return days ?? null;
    },
    setRetentionDays: (projectId, days, at, userId) =>
      writer.run('projects.setRetention', [projectId, days, at, userId]),
  };
}
