// Migration 8 as released: the id, trace and parent indexes keyed by virtual generated
// columns of 8-byte keys (unhex of the id's first 16 hex digits). Migration 9 replaces those
// columns (sqlite/calls/call-keys.ts): unhex() needs SQLite 3.41, and a schema that names it cannot
// be checked (PRAGMA integrity_check), vacuumed or written by an older sqlite3 tool.
import type { Migration } from '../database.js';

const KEY_V8 = (x: string) => `coalesce(unhex(substr(replace(${x}, '-', ''), 1, 16)), ${x})`;

export const CALLS_KEYS_V8 = `
ALTER TABLE calls ADD COLUMN id_key BLOB GENERATED ALWAYS AS (${KEY_V8('id')}) VIRTUAL;
ALTER TABLE calls ADD COLUMN trace_key BLOB GENERATED ALWAYS AS (${KEY_V8('trace_id')}) VIRTUAL;
ALTER TABLE calls ADD COLUMN parent_key BLOB GENERATED ALWAYS AS (${KEY_V8('parent_id')}) VIRTUAL;
DROP INDEX calls_pk;
DROP INDEX calls_trace;
DROP INDEX calls_parent;
CREATE INDEX calls_id ON calls (id_key);
-- A trace's calls in start order (ties on started_at are sorted by id after the index).
CREATE INDEX calls_trace ON calls (trace_key, started_at);
CREATE INDEX calls_parent ON calls (parent_key, started_at) WHERE parent_key IS NOT NULL;
-- Roots (trace_roots_only, the UI's default view) by project in start order, with the live
-- columns so that counting them reads no row: what calls_parent's (project_id, NULL) prefix did.
CREATE INDEX calls_roots ON calls (project_id, started_at, id, deleted_at, expire_at) WHERE parent_id IS NULL;
`;

export const MIGRATION_8: Migration = { version: 8, sql: CALLS_KEYS_V8 };
