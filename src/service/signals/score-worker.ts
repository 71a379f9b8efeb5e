// Runs the scoring queue: claims due jobs up to `concurrency` at a time, runs each, and ends it
// done, failed, or due again after a back-off. It wakes when this server queues work, and
// otherwise looks every `pollMs` (work queued by another server, retries come due, leases of a
// dead worker run out). Scoring happens beside requests, never in their way: a claim is one
// small write, and at most `concurrency` model calls are in flight.
import type { ScoreJob, ScoreJobStore } from '../../storage/signals/score-job-store.js';
import { nowMicros } from '../../time.js';
import { ScoreError } from './score-error.js';

/** Tries of a job whose failures pass (a provider's 5xx, a timeout) before it is failed for good. */
export const MAX_ATTEMPTS = 5;
/** Back-off after the n-th failed try: 5 s, 10 s, 20 s, ... at most 10 minutes. */
export const backoffMs = (attempts: number) => Math.min(600_000, 5000 * 2 ** Math.max(0, attempts - 1));

export interface ScoreWorkerOptions {
  readonly jobs: ScoreJobStore;
  readonly run: (job: ScoreJob) => Promise<void>;
  /** This server, as the owner of its claims. */
  readonly owner: string;
  readonly concurrency: number;
  readonly pollMs: number;
  /** How long a claim holds before another server may take the job. */
  readonly leaseMs: number;
  readonly log: (message: string, err?: unknown) => void;
}

export function createScoreWorker(o: ScoreWorkerOptions) {
  let running = 0;
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;
  let claiming = false;
  const inFlight = new Set<Promise<void>>();

  async function runOne(job: ScoreJob): Promise<void> {
    try {
      await o.run(job);
      await o.jobs.finish(job.key, o.owner, 'done', null, nowMicros());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const retry = err instanceof ScoreError ? err.retryable : false;
      if (!(err instanceof ScoreError)) o.log(`score job ${job.key} failed`, err);
      if (retry && job.attempts < MAX_ATTEMPTS)
        await o.jobs.retry(job.key, o.owner, nowMicros() + backoffMs(job.attempts) * 1000, message, nowMicros());
      else await o.jobs.finish(job.key, o.owner, 'failed', message, nowMicros());
    }
  }

  function schedule(ms: number): void {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  }

  async function tick(): Promise<void> {
    timer = null;
    if (stopped || claiming) return;
    const free = o.concurrency - running;
    if (free <= 0) return; // a finishing job ticks again
    claiming = true;
    let claimed: ScoreJob[] = [];
    try {
      claimed = await o.jobs.claim(o.owner, nowMicros(), o.leaseMs * 1000, free);
    } catch (err) {
      o.log('claiming score jobs failed', err);
    } finally {
      claiming = false;
    }
    for (const job of claimed) {
      running++;
      const p = runOne(job)
        .catch((err) => o.log(`ending score job ${job.key} failed`, err))
        .finally(() => {
          running--;
          inFlight.delete(p);
          schedule(0);
        });
      inFlight.add(p);
    }
    // A full claim may have left more behind: look again at once; else at the next poll.
    schedule(claimed.length === free && claimed.length > 0 ? 0 : o.pollMs);
  }

  return {
    start(): void {
      stopped = false;
      schedule(0);
    },
    /** Work was queued here: look now rather than at the next poll. */
    wake(): void {
      if (!stopped && !claiming) schedule(0);
    },
    /** Stops claiming and waits for the jobs in flight (their leases cover a stop cut short). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type ScoreWorker = ReturnType<typeof createScoreWorker>;
