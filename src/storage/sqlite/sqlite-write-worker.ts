// The writer's thread (see sqlite-writer.ts): owns the only writing connection to the file.
// Jobs arrive one message each; every job that arrived while a group was being committed is
// committed together in the next transaction (group commit), and each result goes back with
// its job's id once that transaction has committed, with the seconds the group took (the
// writer's commit latency, StoreStats.onCommit).
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from './sqlite-database.js';
import { createGroupRunner, type WriteJob } from './sqlite-write-procedures.js';

const db = openSqliteConnection((workerData as { path: string }).path);
// Checkpoint every ~40 MB of WAL instead of SQLite's 4 MB. Writes of random keys (OTLP span
// and trace ids) dirty about one index page per row, so a commit of 1,000 spans outgrew the
// default on every commit and each commit also copied its pages into the database file.
// Measured: 100,000 random-id rows in commits of 1,000, 5.4 s -> 3.3-4.0 s; the OTLP
// benchmark +15-25%. Readers and memory are unaffected (the WAL index grows ~100 KB).
db.pragma('wal_autocheckpoint = 10000');
const runGroup = createGroupRunner(db);
let waiting: [number, WriteJob][] = [];
let scheduled = false;

function commitWaiting(): void {
  scheduled = false;
  const group = waiting;
  waiting = [];
  const began = performance.now();
  const results = runGroup(group.map(([, job]) => job));
  const seconds = (performance.now() - began) / 1000;
  parentPort!.postMessage([group.map(([id], i) => [id, results[i]]), seconds]);
}

parentPort!.on('message', (msg: [number, WriteJob]) => {
  waiting.push(msg);
  // After the messages already delivered in this turn: they join the same group.
  if (!scheduled) {
    scheduled = true;
    setImmediate(commitWaiting);
  }
});
