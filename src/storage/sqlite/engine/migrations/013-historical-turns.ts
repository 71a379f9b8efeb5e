// Migration 13: the record of each historical turn imported (storage/historical-turns/historical-turn-store.ts),
// one row per (project, logical_key); the turn's spans are in `spans`.
import type { Migration } from '../database.js';

export const HISTORICAL_TURNS_V13 = `
CREATE TABLE historical_turns (
  project_id TEXT NOT NULL,
  logical_key TEXT NOT NULL,
  wire_sha256 TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('committing', 'committed')),
  commit_id TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  root_span_id TEXT NOT NULL,
  span_count INTEGER NOT NULL,
  last_error TEXT,
  lease_until INTEGER NOT NULL,
  wb_user_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (project_id, logical_key)
) WITHOUT ROWID;
`;

export const MIGRATION_13: Migration = { version: 13, sql: HISTORICAL_TURNS_V13 };
