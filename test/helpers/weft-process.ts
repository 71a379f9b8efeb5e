// Runs Weft as its users do, from the sources: `weft keys ...` as a child process, and the
// server on a free port. Each returns what a test needs to assert on.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CHILD_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

/** Temporary directories, removed by `removeAll` (call it from `after`). */
export function tempDirs(prefix: string): { make(): string; removeAll(): void } {
  const dirs: string[] = [];
  return {
    make() {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    removeAll() {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** `weft keys <args> --data-dir dataDir`: exit code, stdout, stderr. */
export function cli(dataDir: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'keys', ...args, '--data-dir', dataDir], {
    cwd: ROOT,
    encoding: 'utf8',
    env: CHILD_ENV,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The clear-text key printed by `weft keys create` (fails the test when there is none). */
export function createdKey(out: string): string {
  const key = /weft_[A-Za-z0-9_-]{43}/.exec(out)?.[0];
  if (!key) throw new Error(`no key in: ${out}`);
  return key;
}

export interface Served {
  port?: number;
  /** What the server printed up to its startup line. */
  stdout?: string;
  code?: number | null;
  stderr: string;
  stop: () => void;
  /** Settles when the process has exited. */
  exited: Promise<void>;
}

/** Starts src/main.ts; resolves with the port once listening, or the exit code if it exits. */
export function serve(args: string[]): Promise<Served> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--port', '0', '--log-level', 'silent', ...args],
    { cwd: ROOT, env: CHILD_ENV },
  );
  let out = '';
  let stderr = '';
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return new Promise((res) => {
    const timer = setTimeout(() => {
      stop();
      res({ stderr: `${stderr}\n(timeout)`, stop, exited });
      // A wait, not a timing check: a clean-clone CI run beside the Node 22 run took over 30 s.
    }, 60_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on \S+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        res({ port: Number(m[1]), stdout: out, stderr, stop, exited });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      res({ code, stderr, stop, exited });
    });
  });
}
