// Migration 17: feedback by time. /feedback/stats, /feedback/aggregate and payload_schema read a
// project's feedback over a created_at window; without this index they read all of it.
import type { Migration } from '../database.js';

export const FEEDBACK_CREATED_V17 = `
CREATE INDEX feedback_created ON feedback (project_id, created_at);
`;

export const MIGRATION_17: Migration = { version: 17, sql: FEEDBACK_CREATED_V17 };
