// The checkpointer's thread (see sqlite/engine/writer.ts): copies committed WAL frames into the
// database file on its own connection, so the writer's commits do not wait for it. Told of
// each commit, it checkpoints at most once per interval (PASSIVE: it never blocks the writer
// or readers; frames a reader still needs are left for a later pass). The writer keeps
// SQLite's own checkpoint as a bound on the WAL in case this one falls behind.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from './database.js';
import { markWorkerReady } from './worker-ready.js';

const { path, intervalMs } = workerData as { path: string; intervalMs: number };
const db = openSqliteConnection(path);
markWorkerReady();
let last = 0;
// biome-ignore lint/correctness/noUnusedVariables: read by `timer ??=`, which schedules one checkpoint at a time
let timer: NodeJS.Timeout | null = null;

function checkpoint(): void {
  timer = null;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A failed pass (a full disk, a busy lock) is retried at the next commit; the writer's own
    // checkpoint still bounds the WAL.
  }
  last = performance.now();
}

parentPort!.on('message', () => {
  timer ??= setTimeout(checkpoint, Math.max(0, last + intervalMs - performance.now()));
});
