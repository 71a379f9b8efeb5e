// Migration 22: the spans whose searchable messages are still to be indexed. A span write
// stores the span and appends its rowid here in the same transaction; the writer indexes the
// backlog when it has nothing else to do, and a search indexes what is left before it reads
// (sqlite/spans/span-message-backlog.ts). A crash loses nothing: the backlog is a table.
// `fresh`: the span was new when written, so it holds no first occurrence to forget yet.
import type { Migration } from '../database.js';

export const SPAN_MESSAGE_BACKLOG_V22 = `
CREATE TABLE span_message_backlog (
  seq INTEGER PRIMARY KEY,
  span_rowid INTEGER NOT NULL,
  fresh INTEGER NOT NULL
);
`;

export const MIGRATION_22: Migration = { version: 22, sql: SPAN_MESSAGE_BACKLOG_V22 };
