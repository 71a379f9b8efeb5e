// The writer's thread (see sqlite-writer.ts): owns the only writing connection to the file
// and runs each group of jobs it receives in one transaction, answering with one result per job.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from './sqlite-database.js';
import { createGroupRunner, type WriteJob } from './sqlite-write-procedures.js';

const db = openSqliteConnection((workerData as { path: string }).path);
const runGroup = createGroupRunner(db);
parentPort!.on('message', (jobs: WriteJob[]) => parentPort!.postMessage(runGroup(jobs)));
