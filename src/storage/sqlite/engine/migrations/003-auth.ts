// Migration 3: API keys, users and their roles.
import type { Migration } from '../database.js';

// SQLite tables for users, API keys and roles (migration 3).
// A key belongs to a user; a user holds roles on entities (project = '' means every
// project of the entity) or on single projects. Keys are stored only as a SHA-256 hash.
export const AUTH_SCHEMA_V3 = `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_user ON api_keys (user_id);
CREATE TABLE user_roles (
  user_id TEXT NOT NULL REFERENCES users(id),
  entity TEXT NOT NULL,
  project TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL CHECK (role IN ('admin', 'writer', 'reader')),
  PRIMARY KEY (user_id, entity, project)
);
`;

export const MIGRATION_3: Migration = { version: 3, sql: AUTH_SCHEMA_V3 };
