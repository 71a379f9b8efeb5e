// The worker's side of worker-spawn.ts: called once the thread has opened its database, after
// which the thread may be terminated safely.
import { workerData } from 'node:worker_threads';

export function markWorkerReady(): void {
  const ready = (workerData as { ready?: Int32Array } | null)?.ready;
  if (ready === undefined) return;
  Atomics.store(ready, 0, 1);
  Atomics.notify(ready, 0);
}
