// Migration 12: the messages of agent spans for /agents/search (storage/spans/message-fanout.ts).
// A body is stored once per (project, digest) and indexed by FTS5 (external content: the text
// is kept once, in span_message_bodies); span_messages lists each span's (role, body) in order.
// FTS5's unicode61 tokenizer folds case and keeps diacritics, as ClickHouse's search does.
// Spans stored before this migration are searchable once they are sent again. It also indexes
// spans by the op call that produced them.
import type { Migration } from '../database.js';

export const SPAN_MESSAGES_V12 = `
CREATE TABLE span_message_bodies (
  id INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  digest TEXT NOT NULL,
  content TEXT NOT NULL,
  UNIQUE (project_id, digest)
);
CREATE VIRTUAL TABLE span_message_fts USING fts5(
  content, content = 'span_message_bodies', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 0'
);
CREATE TABLE span_messages (
  project_id TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  span_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  role TEXT NOT NULL,
  body_id INTEGER NOT NULL,
  conversation_id TEXT,
  started_at INTEGER NOT NULL,
  PRIMARY KEY (project_id, trace_id, span_id, ord)
) WITHOUT ROWID;
CREATE INDEX span_messages_body ON span_messages (body_id);
CREATE INDEX span_messages_started ON span_messages (project_id, started_at);
-- The agent spans an op call produced (weave.parent_call.id), for the call view's link to them.
CREATE INDEX spans_parent_call ON spans (project_id, parent_call_id) WHERE parent_call_id IS NOT NULL;
`;

export const MIGRATION_12: Migration = { version: 12, sql: SPAN_MESSAGES_V12 };
