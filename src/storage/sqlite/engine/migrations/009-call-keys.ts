// Migration 9: calls found by keys of their ids (why: sqlite/calls/call-keys.ts).
import type { Migration } from '../database.js';
import { callKeyOf } from '../../calls/call-keys.js';

export const CALLS_KEYS_V9 = `
DROP INDEX calls_id;
DROP INDEX calls_trace;
DROP INDEX calls_parent;
ALTER TABLE calls DROP COLUMN id_key;
ALTER TABLE calls DROP COLUMN trace_key;
ALTER TABLE calls DROP COLUMN parent_key;
ALTER TABLE calls ADD COLUMN id_key TEXT GENERATED ALWAYS AS (${callKeyOf('id')}) VIRTUAL;
ALTER TABLE calls ADD COLUMN trace_key TEXT GENERATED ALWAYS AS (${callKeyOf('trace_id')}) VIRTUAL;
ALTER TABLE calls ADD COLUMN parent_key TEXT GENERATED ALWAYS AS (${callKeyOf('parent_id')}) VIRTUAL;
CREATE INDEX calls_id ON calls (id_key);
-- A trace's calls in start order (ties on started_at are sorted by id after the index).
CREATE INDEX calls_trace ON calls (trace_key, started_at);
CREATE INDEX calls_parent ON calls (parent_key, started_at) WHERE parent_key IS NOT NULL;
`;

export const MIGRATION_9: Migration = { version: 9, sql: CALLS_KEYS_V9 };
