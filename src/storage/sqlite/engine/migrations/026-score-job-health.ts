// Migration 26: each monitor's health (`/signals/status`, polled by the Monitors view) counts
// its jobs by state and finds its last outcomes from this index alone, not from the rows.
import type { Migration } from '../database.js';

export const MIGRATION_26: Migration = {
  version: 26,
  sql: 'CREATE INDEX score_jobs_monitor ON score_jobs (project_id, monitor_id, state, updated_at);',
};
