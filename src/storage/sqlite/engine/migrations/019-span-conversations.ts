// Migration 19: the conversations of each project, one row per conversation_id that at least
// one stored span carries, kept exact by the writer's span writes and purges
// (sqlite/spans/span-conversation-writes.ts). The conversations page counts them here:
// counting the distinct conversation_id of 1,000,000 spans through their covering index took
// ~90 ms of the page's ~120 (docs/performance.md "Agents").
import type { Migration } from '../database.js';

export const SPAN_CONVERSATIONS_V19 = `
CREATE TABLE span_conversations (
  project_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  PRIMARY KEY (project_id, conversation_id)
) WITHOUT ROWID;
INSERT INTO span_conversations (project_id, conversation_id)
  SELECT DISTINCT project_id, conversation_id FROM spans WHERE conversation_id IS NOT NULL;
`;

export const MIGRATION_19: Migration = { version: 19, sql: SPAN_CONVERSATIONS_V19 };
