// Migration 23: the spans by owner index also holds each span's conversation and start, in
// that order after the owner, so the conversations page filtered by an agent counts the
// agent's conversations from the index alone (sqlite/spans/conversation-page.ts; 22,340
// conversations of the busiest agent over 1M spans), within time bounds too. A filter by
// owner and version still reads the index only.
import type { Migration } from '../database.js';

export const SPAN_OWNER_CONVERSATIONS_V23 = `
DROP INDEX spans_owner;
CREATE INDEX spans_owner ON spans (project_id, owner_agent_name, conversation_id, owner_agent_version, started_at)
  WHERE owner_agent_name IS NOT NULL;
`;

export const MIGRATION_23: Migration = { version: 23, sql: SPAN_OWNER_CONVERSATIONS_V23 };
