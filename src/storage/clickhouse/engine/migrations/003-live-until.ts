// Migration 3: live_until, whether a call row is live, as one computed column.
import type { ChMigration } from './index.js';

export const MIGRATION_3: ChMigration = {
  version: 3,
  tables: [],
  // Until when a row shows a live call, as one column ClickHouse computes on every insert
  // (0: no start, or deleted; the greatest Int64: no time-to-live); clickhouse/calls/live.ts reads
  // it. MATERIALIZED: no write can set it and SELECT * leaves it out; a Distributed table
  // computes it before sending rows to the shards. Parts written before this compute it
  // when read, until MATERIALIZE COLUMN (a background mutation) has written it.
  alters: [
    {
      table: 'calls',
      distributed: true,
      clause:
        'ADD COLUMN IF NOT EXISTS live_until Int64 MATERIALIZED if(has_start = 1 AND deleted_at IS NULL, coalesce(expire_at, 9223372036854775807), 0)',
    },
    { table: 'calls', clause: 'MATERIALIZE COLUMN live_until', distributed: false },
  ],
};
