// Migration 25: the queue of scoring work (storage/signals/score-job-store.ts). One row per job,
// kept after it ends; claims walk the (state, due_at) index.
import type { Migration } from '../database.js';

export const SCORE_JOBS_V25 = `
CREATE TABLE score_jobs (
  key TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  monitor_id TEXT NOT NULL,
  monitor_digest TEXT NOT NULL,
  scorer_ref TEXT NOT NULL,
  target_kind TEXT NOT NULL,
  target_id TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  due_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX score_jobs_due ON score_jobs (state, due_at);
CREATE INDEX score_jobs_project ON score_jobs (project_id, state);
`;

export const MIGRATION_25: Migration = { version: 25, sql: SCORE_JOBS_V25 };
