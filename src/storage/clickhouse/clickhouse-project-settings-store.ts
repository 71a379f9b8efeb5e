// Per-project settings on ClickHouse: each change is a new row, the newest one wins (no
// updates in place, so replicas never race on a row).
import type { ClickHouseClient } from '@clickhouse/client';
import type { ProjectSettingsStore } from '../project-settings-store.js';
import { selectRows } from './clickhouse-client.js';
import { chIdentifier } from './clickhouse-dialect.js';

export function createClickHouseProjectSettingsStore(client: ClickHouseClient, database: string): ProjectSettingsStore {
  const table = `${chIdentifier(database)}.project_settings`;
  return {
    async getRetentionDays(projectId) {
      const rows = await selectRows<{ retention_days: number | null }>(client,
        `SELECT retention_days FROM ${table} WHERE project_id = {project:String} ORDER BY updated_at DESC LIMIT 1`, { project: projectId });
      return rows[0]?.retention_days ?? null;
    },
    async setRetentionDays(projectId, days, at, userId) {
      await client.insert({ table, values: [{ project_id: projectId, retention_days: days, updated_at: at, updated_by: userId }], format: 'JSONEachRow' });
    },
  };
}
