// Migration 14: /agents/search reads a term's occurrences from the body index alone. With the
// conversation, start and role in the index (the key's trace, span and order ride along in a
// WITHOUT ROWID table's index), a phrase's 14,000 occurrences over 1M spans cost ~40 ms, not
// ~350 ms of lookups in the table (docs/performance.md "Agents").
import type { Migration } from '../database.js';

export const SPAN_MESSAGE_COVER_V14 = `
DROP INDEX span_messages_body;
CREATE INDEX span_messages_body ON span_messages (body_id, project_id, conversation_id, started_at, role);
`;

export const MIGRATION_14: Migration = { version: 14, sql: SPAN_MESSAGE_COVER_V14 };
