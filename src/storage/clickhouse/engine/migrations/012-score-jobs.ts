// Migration 12: the queue of scoring work (storage/signals/score-job-store.ts). Each change of a
// job is a row, the newest by seq wins (a new job's row has seq 0, so it never undoes a claim);
// claims are rows of their own whose server-side time decides who holds a job
// (clickhouse/signals/score-job-store.ts).
import type { ChMigration } from './index.js';

export const MIGRATION_12: ChMigration = {
  version: 12,
  tables: [
    {
      name: 'score_jobs',
      columns: `key String, project_id String, monitor_id String, monitor_digest String, scorer_ref String,
        target_kind LowCardinality(String), target_id String, state LowCardinality(String), attempts UInt32,
        due_at Int64, lease_owner String, lease_until Int64, last_error Nullable(String), created_at Int64,
        updated_at Int64, seq UInt64`,
      orderBy: '(key)',
      shardBy: 'cityHash64(key)',
      replacingBy: 'seq',
    },
    {
      name: 'score_claims',
      columns: `key String, attempt UInt32, owner String, claimed_at DateTime64(6) DEFAULT now64(6)`,
      orderBy: '(key, attempt)',
      shardBy: 'cityHash64(key)',
    },
  ],
};
