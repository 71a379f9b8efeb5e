// Running one benchmark script on its own (`node --import tsx bench/<name>.ts`).
import { pathToFileURL } from 'node:url';
import { benchOptions, type BenchOptions } from './config.js';
import { agent } from './http.js';
import { textTable, type BenchResult } from './report.js';

/** True when `moduleUrl` is the script node was started with. */
export const isMain = (moduleUrl: string) => moduleUrl === pathToFileURL(process.argv[1] ?? '').href;

/** Runs the benchmark with the environment's options, prints its rows and notes, and lets the process end. */
export async function runAlone(run: (opts: BenchOptions) => Promise<BenchResult>): Promise<void> {
  try {
    const r = await run(benchOptions());
    console.log(textTable(r.rows));
    for (const n of r.notes) console.log(n.includes('\n') ? n : `- ${n}`);
  } finally {
    agent.destroy(); // idle keep-alive sockets would otherwise hold the process open
  }
}
