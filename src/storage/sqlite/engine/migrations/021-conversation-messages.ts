// Migration 21: the searchable messages once per conversation (storage/spans/message-fanout.ts).
// A model call repeats its conversation's history, so one row per span and message cost 4.4 rows
// a span and most of agent ingest's time (docs/performance.md "Agents"). A row is now one message
// (role, body) of one scope, its conversation (else, outside any, its trace: `scope` is 'c:' or
// 't:' then the id), at its first occurrence: the span (rowid, trace, id), its order in the span
// and its start. The existing rows are folded into their first occurrences under each span's
// settled conversation. span_messages_span finds a span's first occurrences (a span sent again,
// moved to another conversation or purged); span_messages_body serves the term-first search.
import type { Migration } from '../database.js';

export const CONVERSATION_MESSAGES_V21 = `
CREATE TABLE span_messages_v21 (
  project_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  role TEXT NOT NULL,
  body_id INTEGER NOT NULL,
  span_rowid INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  conversation_id TEXT,
  trace_id TEXT NOT NULL,
  span_id TEXT NOT NULL,
  PRIMARY KEY (project_id, scope, role, body_id)
) WITHOUT ROWID;
INSERT INTO span_messages_v21 (project_id, scope, role, body_id, span_rowid, ord, started_at, conversation_id, trace_id, span_id)
  SELECT project_id, scope, role, body_id, span_rowid, ord, started_at, conversation_id, trace_id, span_id FROM (
    SELECT s.project_id, coalesce('c:' || s.conversation_id, 't:' || s.trace_id) AS scope, m.role, m.body_id,
      m.span_rowid, m.ord, s.started_at, s.conversation_id, s.trace_id, s.span_id,
      row_number() OVER (
        PARTITION BY s.project_id, coalesce('c:' || s.conversation_id, 't:' || s.trace_id), m.role, m.body_id
        ORDER BY s.started_at, s.span_id, m.ord
      ) AS n
    FROM span_messages AS m JOIN spans AS s ON s.rowid = m.span_rowid
  ) WHERE n = 1;
DROP TABLE span_messages;
ALTER TABLE span_messages_v21 RENAME TO span_messages;
CREATE INDEX span_messages_body ON span_messages (body_id, project_id, conversation_id, started_at, role);
CREATE INDEX span_messages_span ON span_messages (span_rowid, ord);
`;

export const MIGRATION_21: Migration = { version: 21, sql: CONVERSATION_MESSAGES_V21 };
