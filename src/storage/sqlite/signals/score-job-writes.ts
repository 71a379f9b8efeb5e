// The write procedures of the scoring queue (run by the writer, see sqlite/engine/writer.ts):
// a claim is one UPDATE ... RETURNING inside the writer's transaction, so no two claims take
// the same job.
import type { SqliteDb } from '../engine/database.js';
import type { ScoreJob } from '../../signals/score-job-store.js';

export interface ScoreJobRow {
  key: string;
  project_id: string;
  monitor_id: string;
  monitor_digest: string;
  scorer_ref: string;
  target_kind: string;
  target_id: string;
  created_at: number;
  due_at?: number;
}

export function scoreJobWrites(db: SqliteDb) {
  const insert = db.prepare(`
    INSERT INTO score_jobs (key, project_id, monitor_id, monitor_digest, scorer_ref, target_kind, target_id,
      state, attempts, due_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)
    ON CONFLICT (key) DO NOTHING`);
  const claim = db.prepare(`
    UPDATE score_jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?, updated_at = ?
    WHERE key IN (
      SELECT key FROM score_jobs WHERE state = 'queued' AND due_at <= ?
      UNION ALL
      SELECT key FROM score_jobs WHERE state = 'running' AND lease_until < ?
      LIMIT ?)
    RETURNING key, project_id, monitor_id, monitor_digest, scorer_ref, target_kind, target_id, state, attempts,
      last_error, created_at`);
  const finish = db.prepare(`
    UPDATE score_jobs SET state = ?, last_error = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
    WHERE key = ? AND lease_owner = ? AND state = 'running'`);
  const retry = db.prepare(`
    UPDATE score_jobs SET state = 'queued', due_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL,
      updated_at = ?
    WHERE key = ? AND lease_owner = ? AND state = 'running'`);
  return {
    'scoreJobs.enqueue'(rows: readonly ScoreJobRow[]): number {
      let added = 0;
      for (const r of rows)
        added += insert.run(
          r.key,
          r.project_id,
          r.monitor_id,
          r.monitor_digest,
          r.scorer_ref,
          r.target_kind,
          r.target_id,
          r.due_at ?? r.created_at,
          r.created_at,
          r.created_at,
        ).changes;
      return added;
    },
    'scoreJobs.claim'(owner: string, now: number, leaseMicros: number, limit: number): ScoreJob[] {
      return claim.all(owner, now + leaseMicros, now, now, now, limit) as ScoreJob[];
    },
    'scoreJobs.finish'(key: string, owner: string, state: string, error: string | null, now: number): void {
      finish.run(state, error, now, key, owner);
    },
    'scoreJobs.retry'(key: string, owner: string, dueAt: number, error: string, now: number): void {
      retry.run(dueAt, error, now, key, owner);
    },
  };
}
