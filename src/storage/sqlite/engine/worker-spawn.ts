// Starts one of the engine's worker threads from its entry file next to this one: the built
// JavaScript, or under tsx (tests, bench) the TypeScript source, for which the worker
// registers tsx's loader itself (tsx registers it on the main thread only).
import { Worker } from 'node:worker_threads';

export function spawnSqliteWorker(
  entry: 'write-worker' | 'read-worker' | 'checkpoint-worker',
  workerData: unknown,
): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, import.meta.url), { workerData });
  const source = new URL(`./${entry}.ts`, import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
