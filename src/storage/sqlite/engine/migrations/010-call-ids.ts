// Migration 10: the id keys in two key tables instead of an index (why: sqlite/calls/call-ids.ts).
import type { Migration } from '../database.js';

export const CALL_IDS_V10 = `
CREATE TABLE call_ids (key TEXT NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (key, rid)) WITHOUT ROWID;
CREATE TABLE call_ids_recent (key TEXT NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (key, rid)) WITHOUT ROWID;
INSERT INTO call_ids (key, rid) SELECT id_key, rowid FROM calls ORDER BY 1, 2;
DROP INDEX calls_id;
CREATE VIEW call_ids_all AS SELECT key, rid FROM call_ids UNION ALL SELECT key, rid FROM call_ids_recent;
`;

export const MIGRATION_10: Migration = { version: 10, sql: CALL_IDS_V10 };
