// The writer's thread (see sqlite/engine/writer.ts): owns the only writing connection to the file.
// Jobs arrive one message each; every job that arrived while a group was being committed is
// committed together in the next transaction (group commit), and each result goes back with
// its job's id once that transaction has committed and the WAL is synced (sqlite/engine/wal-sync.ts),
// with the seconds the group took (the writer's commit latency, StoreStats.onCommit).
// Work deferred past the answers (IDLE_WORK: indexing span messages) runs in chunks of its
// own transactions once no job has arrived for IDLE_MS, and at startup (a backlog left by a
// stop or a crash); a job arriving meanwhile waits for one chunk at most.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from './database.js';
import { markWorkerReady } from './worker-ready.js';
import { createGroupRunner, IDLE_WORK, type JobResult, type WriteJob } from './write-procedures.js';
import { syncedByCommit, walSync } from './wal-sync.js';

const path = (workerData as { path: string }).path;
const db = openSqliteConnection(path);
markWorkerReady();
const ownSync = process.platform === 'linux' && db.pragma('journal_mode', { simple: true }) === 'wal';
if (ownSync) db.pragma('synchronous = NORMAL');
const sync = ownSync ? walSync(`${path}-wal`) : syncedByCommit;
// The checkpointer thread copies the WAL into the database file (sqlite/engine/checkpoint-worker.ts);
// this connection checkpoints itself (inside a commit) only when the WAL passes 40,000 pages
// (~320 MB of 8 KB pages), a bound for when that thread falls behind. Writes of random keys
// (OTLP span and trace ids) dirty index pages all over the key indexes: measured, ~1.3 WAL
// pages a span against ~0.6 a call (~14 against ~8 KB written, checkpoints included); at
// 25,000 spans/s the WAL grows ~260 MB/s, of which the checkpointer copies what accumulated
// every 250 ms.
db.pragma('wal_autocheckpoint = 40000');
// 16 MB of page cache instead of SQLite's 2 MB default: OTLP's random span and parent keys
// touch index pages all over the key indexes, which then stay cached between commits instead
// of being read again through the WAL. Measured (interleaved, 100,000 spans): OTLP +8%
// spans/s, /call/upsert_batch unchanged (its keys are in time order).
db.pragma('cache_size = -16384');
const runGroup = createGroupRunner(db);
let waiting: [number, WriteJob][] = [];
let scheduled = false;
/** How long the writer waits with nothing to do before it does deferred work. */
const IDLE_MS = 10;
/** Whether deferred work may be left (a write fed it, or the last chunk left some). */
let deferred = true;
let idleTimer: NodeJS.Timeout | null = null;

function commitWaiting(): void {
  scheduled = false;
  const group = waiting;
  waiting = [];
  const began = performance.now();
  const results = runGroup(group.map(([, job]) => job));
  const err = sync();
  const answered = err === null ? results : results.map((r) => (r.ok ? notDurable(err) : r));
  const seconds = (performance.now() - began) / 1000;
  parentPort!.postMessage([group.map(([id], i) => [id, answered[i]]), seconds]);
  if (group.some(([, job]) => IDLE_WORK.fedBy.has(job[0]))) deferred = true;
  armIdle();
}

function armIdle(): void {
  if (idleTimer !== null) clearTimeout(idleTimer);
  idleTimer = deferred && waiting.length === 0 ? setTimeout(runIdle, IDLE_MS) : null;
  idleTimer?.unref();
}

/** One chunk of deferred work in its own transaction, then the next while nothing waits. */
function runIdle(): void {
  idleTimer = null;
  if (waiting.length > 0) return;
  const [r] = runGroup([IDLE_WORK.job]);
  // A chunk that failed is tried again after the next write, not in a loop.
  deferred = r!.ok && (r!.value as number) > 0;
  if (sync() !== null) deferred = true;
  if (deferred) setImmediate(() => waiting.length === 0 && idleTimer === null && runIdle());
}
armIdle();

/**
 * A committed write whose WAL could not be synced is not acknowledged: a 503 (sqlite/engine/faults.ts).
 * Other connections may already see it. Sent again, call parts and objects land on what is
 * there (upserts, content addresses); a feedback sent again is a second one.
 */
const notDurable = (err: NodeJS.ErrnoException): JobResult => ({
  ok: false,
  message: `the write could not be made durable: fdatasync of ${path}-wal failed (${err.code ?? err.message})`,
  code: 'SQLITE_IOERR_FSYNC',
});

parentPort!.on('message', (msg: [number, WriteJob]) => {
  waiting.push(msg);
  if (idleTimer !== null) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  // After the messages already delivered in this turn: they join the same group.
  if (!scheduled) {
    scheduled = true;
    setImmediate(commitWaiting);
  }
});
