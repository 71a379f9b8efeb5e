// Migration 18: a span's searchable messages keyed by the span's rowid, so that writing them
// appends to the table instead of inserting at random (project, trace, span) keys, and without
// the (project_id, started_at) index, whose newest-first walk now reads the spans' start index
// and each span's messages by key (sqlite/spans/span-search.ts). Measured on the bench's ingest
// (100,000 spans, 438,000 messages): 66 KB written to disk a span before, 47 KB after; agent
// span ingest 3.7k -> 5.6k spans/s (docs/performance.md "Agents"). Rows are copied in key order.
import type { Migration } from '../database.js';

export const SPAN_MESSAGES_BY_ROWID_V18 = `
CREATE TABLE span_messages_v18 (
  span_rowid INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  role TEXT NOT NULL,
  body_id INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  conversation_id TEXT,
  started_at INTEGER NOT NULL,
  trace_id TEXT NOT NULL,
  span_id TEXT NOT NULL,
  PRIMARY KEY (span_rowid, ord)
) WITHOUT ROWID;
INSERT INTO span_messages_v18 (span_rowid, ord, role, body_id, project_id, conversation_id, started_at, trace_id, span_id)
  SELECT s.rowid, m.ord, m.role, m.body_id, m.project_id, m.conversation_id, m.started_at, m.trace_id, m.span_id
  FROM span_messages AS m JOIN spans AS s ON s.project_id = m.project_id AND s.trace_id = m.trace_id AND s.span_id = m.span_id
  ORDER BY s.rowid, m.ord;
DROP TABLE span_messages;
ALTER TABLE span_messages_v18 RENAME TO span_messages;
CREATE INDEX span_messages_body ON span_messages (body_id, project_id, conversation_id, started_at, role);
`;

export const MIGRATION_18: Migration = { version: 18, sql: SPAN_MESSAGES_BY_ROWID_V18 };
