// Migration 15: the conversations page (spans/conversation-page.ts) reads conversations by their
// latest activity from an index, newest first, and counts them from covering indexes: the spans
// by activity (end, else start) with their conversation, and the spans outside any conversation.
import type { Migration } from '../database.js';

export const SPAN_ACTIVITY_V15 = `
CREATE INDEX spans_activity ON spans (project_id, coalesce(ended_at, started_at), conversation_id, started_at);
CREATE INDEX spans_no_conversation ON spans (project_id, started_at) WHERE conversation_id IS NULL;
`;

export const MIGRATION_15: Migration = { version: 15, sql: SPAN_ACTIVITY_V15 };
