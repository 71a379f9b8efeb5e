// The writer's thread (see sqlite-writer.ts): owns the only writing connection to the file.
// Jobs arrive one message each; every job that arrived while a group was being committed is
// committed together in the next transaction (group commit), and each result goes back with
// its job's id once that transaction has committed.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from './sqlite-database.js';
import { createGroupRunner, type WriteJob } from './sqlite-write-procedures.js';

const db = openSqliteConnection((workerData as { path: string }).path);
const runGroup = createGroupRunner(db);
let waiting: [number, WriteJob][] = [];
let scheduled = false;

function commitWaiting(): void {
  scheduled = false;
  const group = waiting;
  waiting = [];
  const results = runGroup(group.map(([, job]) => job));
  parentPort!.postMessage(group.map(([id], i) => [id, results[i]]));
}

parentPort!.on('message', (msg: [number, WriteJob]) => {
  waiting.push(msg);
  // After the messages already delivered in this turn: they join the same group.
  if (!scheduled) {
    scheduled = true;
    setImmediate(commitWaiting);
  }
});
