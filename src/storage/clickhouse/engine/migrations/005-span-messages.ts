// Migration 5: the messages of agent spans for /agents/search (storage/spans/message-fanout.ts), as
// SQLite's migration 12 keeps them. A body is stored once per (project, digest) (repeats merge
// away), with an n-gram bloom index on its lower-cased text that LIKE prefilters use; each
// span's (role, digest) list is one row, replaced whole when the span is sent again.
// Spans stored before this migration are searchable once they are sent again.
import type { ChMigration } from './index.js';

export const MIGRATION_5: ChMigration = {
  version: 5,
  tables: [
    {
      name: 'span_message_bodies',
      columns: `
        project_id String, digest String, content String, seq UInt64,
        INDEX by_text lowerUTF8(content) TYPE ngrambf_v1(3, 65536, 2, 0) GRANULARITY 1`,
      orderBy: '(project_id, digest)',
      shardBy: 'cityHash64(project_id, digest)',
      replacingBy: 'seq',
    },
    {
      name: 'span_messages',
      columns: `
        project_id String, trace_id String, span_id String, conversation_id Nullable(String), started_at Int64,
        roles Array(String), digests Array(String), seq UInt64`,
      orderBy: '(project_id, trace_id, span_id)',
      shardBy: 'cityHash64(project_id, trace_id)',
      replacingBy: 'seq',
    },
  ],
  // The agent spans an op call produced (weave.parent_call.id), for the call view's link to them.
  alters: [
    {
      table: 'spans',
      clause: 'ADD INDEX IF NOT EXISTS by_parent_call parent_call_id TYPE bloom_filter GRANULARITY 1',
      distributed: false,
    },
  ],
};
