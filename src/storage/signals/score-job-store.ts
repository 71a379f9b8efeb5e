// The durable queue of scoring work (issue 48's monitors): one job per (monitor version,
// scorer, target), where the target is a finished call or agent turn. Enqueueing a job that
// exists already adds nothing, so a target seen twice (spans re-sent, a restart's catch-up)
// is scored once per monitor version and scorer. A worker claims jobs for a lease; a lease
// that runs out (its worker died) makes the job claimable again. Jobs stay after they end,
// as the record that their target was scored.

export type ScoreTargetKind = 'call' | 'agent_turn';
export type ScoreJobState = 'queued' | 'running' | 'done' | 'failed';

export interface ScoreJobInput {
  readonly project_id: string;
  /** The Monitor object and the version that asked for the score. */
  readonly monitor_id: string;
  readonly monitor_digest: string;
  /** The scorer's object ref, as the monitor names it. */
  readonly scorer_ref: string;
  readonly target_kind: ScoreTargetKind;
  /** A call id, or an agent turn's trace id. */
  readonly target_id: string;
  /** Microseconds since the epoch. */
  readonly created_at: number;
  /** When it may run first (a debounced monitor waits); default: at once. */
  readonly due_at?: number;
}

export interface ScoreJob extends ScoreJobInput {
  /** Identifies the job: derived from the monitor version, scorer and target (scoreJobKey). */
  readonly key: string;
  readonly state: ScoreJobState;
  /** Claims so far, this one included. */
  readonly attempts: number;
  readonly last_error: string | null;
}

export interface ScoreJobCounts {
  readonly queued: number;
  readonly running: number;
  readonly done: number;
  readonly failed: number;
}

/** A monitor's jobs (every version) by state, and its latest outcomes; times in microseconds. */
export interface MonitorJobHealth extends ScoreJobCounts {
  readonly monitor_id: string;
  /** When a job of it last ended done. */
  readonly last_done_at: number | null;
  /** The newest failure (a try that will be retried, or a job failed for good) and when. */
  readonly last_error: string | null;
  readonly last_error_at: number | null;
}

export interface ScoreJobStore {
  /** Queues the jobs not queued before; returns how many were new. */
  enqueue(jobs: readonly ScoreJobInput[]): Promise<number>;
  /**
   * Claims up to `limit` jobs for `owner` until `now + leaseMicros`: queued ones due by `now`
   * (oldest first), and running ones whose lease ran out. A job is claimed by one owner at a
   * time, also across servers on one database.
   */
  claim(owner: string, now: number, leaseMicros: number, limit: number): Promise<ScoreJob[]>;
  /** Ends a job its owner holds: done, or failed for good with the reason. */
  finish(key: string, owner: string, state: 'done' | 'failed', error: string | null, now: number): Promise<void>;
  /** Gives a held job back, due again at `dueAt`, with the reason it failed this time. */
  retry(key: string, owner: string, dueAt: number, error: string, now: number): Promise<void>;
  /** Jobs waiting in every project (the backlog bound), read from the state index alone. */
  queued(): Promise<number>;
  /** Jobs by state in a project (null: every project). */
  counts(projectId: string | null): Promise<ScoreJobCounts>;
  /** Per monitor of the project that has jobs: counts and latest outcomes. */
  health(projectId: string): Promise<MonitorJobHealth[]>;
  /** The job of that key, or null. */
  get(key: string): Promise<ScoreJob | null>;
}
