// Migration 10: the first occurrences of messages by trace. A span write reads the stored first
// occurrences of the scopes its traces speak in (the key's prefix) and of those traces
// (clickhouse/spans/span-message-writes.ts); read as one condition with OR, the trace half
// read every first occurrence of the project under FINAL on every write, which grew with the
// project (chdb, 100,000 spans: ~45 ms a write at the end). A bloom filter on trace_id lets the
// trace half, read on its own, skip the granules that hold none of the written traces.
import type { ChMigration } from './index.js';

export const MIGRATION_10: ChMigration = {
  version: 10,
  tables: [],
  alters: [
    {
      table: 'span_first_messages',
      clause: 'ADD INDEX IF NOT EXISTS by_trace trace_id TYPE bloom_filter(0.01) GRANULARITY 1',
      distributed: false,
    },
    {
      table: 'span_first_messages',
      clause: 'MATERIALIZE INDEX by_trace SETTINGS mutations_sync = 2',
      distributed: false,
    },
  ],
};
