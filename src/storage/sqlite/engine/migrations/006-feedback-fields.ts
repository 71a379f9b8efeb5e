// Migration 6: the feedback fields the newest Weave SDK sends (the trace of the scorer call,
// and the span and conversation a feedback row is about); '' when not given, as in Weave.
import type { Migration } from '../database.js';

export const FEEDBACK_SCHEMA_V6 = `
ALTER TABLE feedback ADD COLUMN scorer_trace_id TEXT NOT NULL DEFAULT '';
ALTER TABLE feedback ADD COLUMN span_trace_id TEXT NOT NULL DEFAULT '';
ALTER TABLE feedback ADD COLUMN span_conversation_id TEXT NOT NULL DEFAULT '';
`;

export const MIGRATION_6: Migration = { version: 6, sql: FEEDBACK_SCHEMA_V6 };
