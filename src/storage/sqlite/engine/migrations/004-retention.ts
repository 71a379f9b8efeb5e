// Migration 4: per-project settings (the calls' time-to-live).
import type { Migration } from '../database.js';

// SQLite tables and indexes for per-project retention (migration 4).
// project_settings: one row per project that has settings; retention_days NULL means no
// time-to-live. calls_expire: a partial index over the calls that can expire, ordered by
// expiry, so the retention job finds the expired ones without a scan.
export const RETENTION_SCHEMA_V4 = `
CREATE TABLE project_settings (
  project_id      TEXT NOT NULL PRIMARY KEY,
  retention_days  INTEGER,            -- NULL: calls of the project never expire
  updated_at      INTEGER NOT NULL,
  updated_by      TEXT
);
CREATE INDEX calls_expire ON calls (expire_at) WHERE expire_at IS NOT NULL;
`;

export const MIGRATION_4: Migration = { version: 4, sql: RETENTION_SCHEMA_V4 };
