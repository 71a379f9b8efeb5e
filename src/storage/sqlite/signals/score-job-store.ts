// The scoring queue on SQLite (migration 25): writes through the writer (score-job-writes.ts),
// reads here.
import type { MonitorJobHealth, ScoreJob, ScoreJobCounts, ScoreJobStore } from '../../signals/score-job-store.js';
import { scoreJobKey } from '../../signals/score-job-key.js';
import type { SqliteDb } from '../engine/database.js';
import type { SqliteWriter } from '../engine/writer.js';

const STATES = ['queued', 'running', 'done', 'failed'] as const;

export function createSqliteScoreJobStore(db: SqliteDb, writer: SqliteWriter): ScoreJobStore {
  const byState = db.prepare(
    'SELECT state, count(*) AS n FROM score_jobs WHERE (? IS NULL OR project_id = ?) GROUP BY state',
  );
  const queued = db.prepare("SELECT count(*) FROM score_jobs WHERE state = 'queued'").pluck();
  const one = db.prepare(
    `SELECT key, project_id, monitor_id, monitor_digest, scorer_ref, target_kind, target_id, state, attempts,
       last_error, created_at FROM score_jobs WHERE key = ?`,
  );
  // SQLite's bare columns: last_error comes from the row holding max(updated_at) of its group.
  // Both halves walk score_jobs_monitor; the errors only its unfinished and failed jobs (measured
  // at 84,000 jobs: 29 ms for the counts, 2 ms for the errors, against 293 ms with state != 'done').
  const health = db.prepare(`
    SELECT h.monitor_id, h.queued, h.running, h.done, h.failed, h.last_done_at, e.last_error, e.last_error_at
    FROM (SELECT monitor_id, sum(state = 'queued') AS queued, sum(state = 'running') AS running,
            sum(state = 'done') AS done, sum(state = 'failed') AS failed,
            max(CASE WHEN state = 'done' THEN updated_at END) AS last_done_at
          FROM score_jobs WHERE project_id = ? GROUP BY monitor_id) h
    LEFT JOIN (SELECT monitor_id, last_error, max(updated_at) AS last_error_at
          FROM score_jobs
          WHERE project_id = ? AND state IN ('queued', 'running', 'failed') AND last_error IS NOT NULL
          GROUP BY monitor_id) e
      ON e.monitor_id = h.monitor_id
    ORDER BY h.monitor_id`);
  return {
    async enqueue(jobs) {
      if (jobs.length === 0) return 0;
      return writer.run('scoreJobs.enqueue', [jobs.map((j) => ({ ...j, key: scoreJobKey(j) }))]);
    },
    claim: (owner, now, leaseMicros, limit) => writer.run('scoreJobs.claim', [owner, now, leaseMicros, limit]),
    finish: (key, owner, state, error, now) => writer.run('scoreJobs.finish', [key, owner, state, error, now]),
    retry: (key, owner, dueAt, error, now) => writer.run('scoreJobs.retry', [key, owner, dueAt, error, now]),
    queued: async () => queued.get() as number,
    async counts(projectId) {
      const out: Record<string, number> = Object.fromEntries(STATES.map((s) => [s, 0]));
      for (const r of byState.all(projectId, projectId) as { state: string; n: number }[]) out[r.state] = r.n;
      return out as unknown as ScoreJobCounts;
    },
    async health(projectId) {
      return health.all(projectId, projectId) as MonitorJobHealth[];
    },
    async get(key) {
      return (one.get(key) as ScoreJob | undefined) ?? null;
    },
  };
}
