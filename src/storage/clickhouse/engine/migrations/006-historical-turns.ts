// Migration 6: the record of each historical turn imported (storage/historical-turns/historical-turn-store.ts), as
// SQLite's migration 13 keeps it. A claim and its settlement are rows of one key with rising seq:
// reads take the newest (ReplacingMergeTree; one key's rows sit on one shard).
import type { ChMigration } from './index.js';

export const MIGRATION_6: ChMigration = {
  version: 6,
  tables: [
    {
      name: 'historical_turns',
      columns: `
        project_id String, logical_key String, wire_sha256 String, status String, commit_id String,
        trace_id String, root_span_id String, span_count Int64, last_error Nullable(String),
        lease_until Int64, wb_user_id Nullable(String), created_at Int64, updated_at Int64, seq UInt64`,
      orderBy: '(project_id, logical_key)',
      shardBy: 'cityHash64(project_id, logical_key)',
      replacingBy: 'seq',
    },
  ],
};
