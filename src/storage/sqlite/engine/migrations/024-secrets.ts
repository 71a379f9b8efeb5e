// Migration 24: entities' secrets, sealed (storage/secrets/secret-store.ts). One row per
// (entity, name); a deleted secret's row goes.
import type { Migration } from '../database.js';

export const SECRETS_V24 = `
CREATE TABLE secrets (
  entity TEXT NOT NULL,
  name TEXT NOT NULL,
  sealed TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  updated_by TEXT,
  PRIMARY KEY (entity, name)
) WITHOUT ROWID;
`;

export const MIGRATION_24: Migration = { version: 24, sql: SECRETS_V24 };
