// Servers under test run as child processes on free loopback ports, so their RSS can be
// read from /proc/<pid>/status and their startup timed from spawn. Contract: every child
// started here is stopped by stop(), and killed when the benchmark process exits anyway.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { BENCH_DIR, dataPath, DATA_DIR, REPO_DIR, type BenchOptions } from './config.js';
import { probe } from './http.js';

const live = new Set<ChildProcess>();
const scratch: string[] = [];
process.on('exit', () => {
  for (const p of live) p.kill('SIGKILL');
  for (const f of scratch) rmSync(f, { force: true });
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(130));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process, bytes (VmRSS), or NaN once it is gone. */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

let builtEntry: string | null = null;

/**
 * Compiles src/ with tsconfig.build.json into bench/.data/dist (once per process, incremental),
 * so the server starts as `npm start` runs it: plain `node main.js`, no TypeScript loader.
 * Type errors (src/ may be mid-edit) are reported but do not stop the benchmark: tsc still emits.
 */
export function buildServer(): string {
  if (builtEntry) return builtEntry;
  const out = join(DATA_DIR, 'dist');
  const tsc = join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--outDir', out, '--tsBuildInfoFile', join(out, '.tsbuildinfo')],
    { cwd: REPO_DIR, encoding: 'utf8' },
  );
  const entry = join(out, 'main.js');
  if (!existsSync(entry)) throw new Error(`server build failed:\n${r.stdout}${r.stderr}`);
  if (r.status !== 0)
    process.stderr.write(
      `bench: src/ has type errors; benchmarking what tsc emitted anyway:\n${r.stdout.slice(0, 2000)}\n`,
    );
  process.stderr.write(`bench: server built in ${((performance.now() - t0) / 1000).toFixed(1)} s -> ${entry}\n`);
  builtEntry = entry;
  return entry;
}

/** The node flags `npm start` gives the server (package.json's start script is the one source). */
export function startFlags(): string[] {
  const script =
    (JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
      .start ?? '';
  // `node <flags> scripts/start.mjs`, which runs dist/main.js with those flags (on an older Node,
  // relaunched with them on a current one); earlier, `node <flags> dist/main.js` itself.
  const m = /\bnode((?:\s+--\S+)*)\s+(?:dist\/main\.js|scripts\/start\.mjs)/.exec(script);
  if (!m) throw new Error(`package.json's start script does not run node dist/main.js: ${script}`);
  return m[1]!.trim().split(/\s+/).filter(Boolean);
}

/** node arguments that run Weft on `port` with `dataDir` (and `extra` flags, e.g. another engine), with npm start's node flags. */
export function weftArgs(
  opts: Pick<BenchOptions, 'server'>,
  port: number,
  dataDir: string,
  extra: readonly string[] = [],
): string[] {
  const entry = [
    ...startFlags(),
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    ...(opts.server === 'dist' ? [buildServer()] : ['--import', 'tsx', join(REPO_DIR, 'src', 'main.ts')]),
  ];
  return [...entry, '--port', String(port), '--data-dir', dataDir, '--log-level', 'warn', ...extra];
}

let routeFiles = 0;
/** node arguments that run the bare Fastify baseline on `port`, answering `routes` with fixed bodies. */
export function bareArgs(port: number, routes: Record<string, string> = {}): string[] {
  const file = join(dataPath('tmp'), `bare-routes-${process.pid}-${routeFiles++}.json`);
  writeFileSync(file, JSON.stringify(routes));
  scratch.push(file);
  return [join(BENCH_DIR, 'lib', 'bare-server.mjs'), String(port), file];
}

export interface ServerProc {
  readonly pid: number;
  readonly url: string;
  rss(): number;
  stop(): Promise<void>;
}

function track(proc: ChildProcess, url: string): ServerProc {
  live.add(proc);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    pid: proc.pid!,
    url,
    rss: () => rssBytes(proc.pid!),
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(t);
      }
      live.delete(proc);
    },
  };
}

/** Spawns `node ...args` and resolves once stdout prints a line matching `ready` (within `timeoutMs`). */
export function startServer(args: string[], ready: RegExp, timeoutMs = 120_000): Promise<ServerProc> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { cwd: REPO_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    const handle = track(proc, '');
    let out = '';
    let err = '';
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void handle.stop();
      reject(new Error(`${why}: node ${args.join(' ')}\n${err.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail('server did not start in time'), timeoutMs);
    proc.stderr!.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-8192);
    });
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && ready.test(out) && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({ ...handle, url: m[1]! });
      }
    });
    proc.once('exit', (code, signal) => fail(`server exited (${code ?? signal}) before it was ready`));
  });
}

export async function startWeft(
  opts: Pick<BenchOptions, 'server'>,
  dataDir: string,
  extra: readonly string[] = [],
): Promise<ServerProc> {
  return startServer(weftArgs(opts, await freePort(), dataDir, extra), /weft listening on/);
}

export async function startBare(routes: Record<string, string>): Promise<ServerProc> {
  return startServer(bareArgs(await freePort(), routes), /bare listening on/);
}

/**
 * Startup time: spawn -> the first request accepted and answered (GET /health = 200),
 * probing on fresh connections every 2 ms. The server is stopped afterwards.
 */
export async function timeToFirstRequest(args: string[], port: number, timeoutMs = 60_000): Promise<number> {
  const proc = spawn(process.execPath, args, { cwd: REPO_DIR, stdio: ['ignore', 'ignore', 'ignore'] });
  const handle = track(proc, `http://127.0.0.1:${port}`);
  const t0 = performance.now();
  try {
    while (performance.now() - t0 < timeoutMs) {
      if (proc.exitCode !== null)
        throw new Error(`server exited (${proc.exitCode}) during startup: node ${args.join(' ')}`);
      if ((await probe(handle.url, '/health')) === 200) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 2));
    }
    throw new Error(`no answer within ${timeoutMs} ms: node ${args.join(' ')}`);
  } finally {
    await handle.stop();
  }
}

/** Bytes the process has handed to write(2) and its kind so far, all threads (/proc/<pid>/io wchar); NaN when unreadable. */
export function writtenBytes(pid: number): number {
  try {
    const m = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11], fields[12] are utime and stime (fields 14 and 15 of proc(5)), in clock ticks (100/s on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}
