// The retention job: every interval, hard-deletes what has expired, of every resource that
// expires (service/resources.ts: the calls whose expire_at has passed, with their feedback;
// the agent spans of expired traces, with their side tables) in small transactions, yielding
// to the event loop between them so ingestion and reads keep flowing. Reads already hide
// expired calls, so for them this reclaims space; expired spans disappear when it runs.
import type { Store } from '../../storage/store.js';
import { nowMicros } from '../../time.js';
import { PURGES } from '../resources.js';

/** Rows (calls, spans) deleted per transaction. */
export const PURGE_BATCH = 1000;

export interface RetentionJob {
  /** Runs one pass now (deletes everything expired); returns how many rows were deleted. */
  runOnce(): Promise<number>;
  /** Stops the timer and waits for a running pass to finish. */
  stop(): Promise<void>;
}

const yieldToEventLoop = () => new Promise<void>((r) => setImmediate(r));

export function startRetentionJob(
  store: Store,
  opts: { intervalMs: number; batch?: number; onError?: (err: unknown) => void },
): RetentionJob {
  const batch = opts.batch ?? PURGE_BATCH;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function pass(): Promise<number> {
    let total = 0;
    for (const { purge } of PURGES)
      for (;;) {
        if (stopped) return total;
        const n = await purge(store, nowMicros(), batch);
        total += n;
        if (n < batch) break;
        await yieldToEventLoop();
      }
    return total;
  }

  function runOnce(): Promise<number> {
    running ??= pass().finally(() => (running = null));
    return running;
  }

  function schedule() {
    if (stopped || opts.intervalMs <= 0) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((err) => opts.onError?.(err))
        .finally(schedule);
    }, opts.intervalMs);
    timer.unref(); // never keeps the process alive on its own
  }

  schedule();
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}
