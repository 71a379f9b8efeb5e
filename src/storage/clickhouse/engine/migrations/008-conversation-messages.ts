// Migration 8: SQLite's migration 21. The searchable messages once per scope (the settled
// conversation, else the trace: 'c:' or 't:' then the id) at their first occurrence (the least
// start, span id, order), instead of each span's (role, digest) list: a model call repeats its
// conversation's history. Rows are replaced by a higher seq (an earlier occurrence, a refound
// one) or deleted (no occurrence left); the writer keeps them (clickhouse/spans/
// span-message-writes.ts). by_trace finds the rows a re-sent or purged trace said first. The
// existing lists are folded into first occurrences under each span's settled conversation.
import type { ChMigration } from './index.js';

export const MIGRATION_8: ChMigration = {
  version: 8,
  tables: [
    {
      name: 'span_first_messages',
      columns: `
        project_id String, scope String, role String, digest String, trace_id String, span_id String,
        ord Int64, started_at Int64, conversation_id Nullable(String), seq UInt64,
        INDEX by_trace trace_id TYPE bloom_filter GRANULARITY 1`,
      orderBy: '(project_id, scope, role, digest)',
      shardBy: 'cityHash64(project_id, scope)',
      replacingBy: 'seq',
    },
  ],
  copies: [
    (db) =>
      `INSERT INTO ${db}.span_first_messages
        (project_id, scope, role, digest, trace_id, span_id, ord, started_at, conversation_id, seq)
      SELECT project_id, scope, role, digest, argMin(trace_id, at), argMin(span_id, at), argMin(ord, at),
        min(started_at), any(conversation_id), 1
      FROM (
        SELECT m.project_id AS project_id, m.trace_id AS trace_id, m.span_id AS span_id, m.started_at AS started_at,
          s.conversation_id AS conversation_id, role, digest, n - 1 AS ord, (m.started_at, m.span_id, n - 1) AS at,
          if(s.conversation_id IS NULL, concat('t:', m.trace_id), concat('c:', s.conversation_id)) AS scope
        FROM (SELECT * FROM ${db}.span_messages FINAL) AS m
        ARRAY JOIN m.roles AS role, m.digests AS digest, arrayEnumerate(m.roles) AS n
        LEFT JOIN (SELECT project_id, trace_id, span_id, conversation_id FROM ${db}.spans FINAL) AS s
          ON s.project_id = m.project_id AND s.trace_id = m.trace_id AND s.span_id = m.span_id
      )
      GROUP BY project_id, scope, role, digest
      SETTINGS join_use_nulls = 1`.replace(/\s+/g, ' '),
  ],
  drops: ['span_messages'],
};
