// Starts one of the engine's worker threads from its entry file next to this one: the built
// JavaScript, or under tsx (tests, bench) the TypeScript source, for which the worker
// registers tsx's loader itself (tsx registers it on the main thread only).
//
// A worker is stopped only once it has opened its database (worker-ready.ts): terminating a
// thread while it is still loading the SQLite addon aborts the whole process on Node 22
// ("Error::New napi_get_last_error_info" from the addon's module registration), as a short
// `weft copy` did when it closed its stores at once.
import { Worker } from 'node:worker_threads';

interface Started {
  readonly ready: Int32Array;
  exited: boolean;
}
const started = new WeakMap<Worker, Started>();

/** How long a stop waits for a worker to finish starting before it terminates it anyway. */
const START_WAIT_MS = 10_000;

export function spawnSqliteWorker(
  entry: 'write-worker' | 'read-worker' | 'checkpoint-worker',
  data: Record<string, unknown>,
): Worker {
  const ready = new Int32Array(new SharedArrayBuffer(4));
  const workerData = { ...data, ready };
  let worker: Worker;
  if (!import.meta.url.endsWith('.ts')) worker = new Worker(new URL(`./${entry}.js`, import.meta.url), { workerData });
  else {
    const source = new URL(`./${entry}.ts`, import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); });`;
    worker = new Worker(boot, { eval: true, workerData });
  }
  const state: Started = { ready, exited: false };
  started.set(worker, state);
  worker.once('exit', () => {
    state.exited = true;
  });
  return worker;
}

/** Terminates `worker` once it has started (or exited, or START_WAIT_MS passed). */
export async function stopSqliteWorker(worker: Worker): Promise<void> {
  const state = started.get(worker);
  if (state !== undefined && !state.exited && Atomics.load(state.ready, 0) === 0) {
    const exited = new Promise<void>((r) => worker.once('exit', () => r()));
    const wait = Atomics.waitAsync(state.ready, 0, 0, START_WAIT_MS);
    // A wait holds no handle: the referenced worker keeps the process alive meanwhile.
    worker.ref();
    await Promise.race([wait.async ? wait.value : Promise.resolve(), exited]);
  }
  await worker.terminate();
}
