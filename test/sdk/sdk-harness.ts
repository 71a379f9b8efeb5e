// Runs the real `weave` npm SDK against a real Weft on a real port. Each script runs in a
// child process (the SDK may process.exit or die of an unhandled rejection; that must show
// as an exit code, not kill the test runner), with its own HOME and working directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';

const WEAVE_ENTRY = createRequire(import.meta.url).resolve('weave');

export interface WeftServer {
  readonly url: string;
  readonly t: TestApp;
  close(): Promise<void>;
}

export async function startWeftServer(opts: TestAppOptions = {}): Promise<WeftServer> {
  const t = await startTestApp(opts);
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { url, t, close: () => t.close() };
}

export interface SdkRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the script put in `out`, printed as its RESULT line. */
  result: any;
}

/**
 * Runs `body` inside an async function of a CommonJS script where `weave` is the SDK,
 * `client` the result of `weave.init(project)` and `out` an object to report back.
 * After the body, the script waits for the SDK's call queue to drain.
 */
export async function runSdk(
  url: string,
  project: string,
  body: string,
  opts: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<SdkRun> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-sdk-'));
  const script = join(dir, 'script.cjs');
  writeFileSync(
    script,
    `const weave = require(${JSON.stringify(WEAVE_ENTRY)});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  const client = await weave.init(${JSON.stringify(project)});
  const out = {};
${body}
  for (let i = 0; i < 3; i++) { await client.waitForBatchProcessing(); await sleep(300); }
  console.log('RESULT ' + JSON.stringify(out));
})().catch(async (e) => {
  let detail = e && e.stack ? e.stack : String(e);
  if (e && typeof e.status === 'number') detail = 'HTTP ' + e.status + ' ' + (e.url || '') + ' ' + JSON.stringify(e.error ?? null);
  console.error('SCRIPT ERROR ' + detail);
  process.exit(3);
});
`,
  );
  try {
    return await new Promise<SdkRun>((resolve, reject) => {
      const child = spawn(process.execPath, [script], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          WF_TRACE_SERVER_URL: url,
          WANDB_API_KEY: 'weft-e2e-key',
          WEAVE_DISABLED: '',
          ...opts.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 90_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
        resolve({ code, stdout, stderr, result: line ? JSON.parse(line.slice(7)) : undefined });
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Fails with the script's output when it did not finish cleanly. */
export function assertRanCleanly(run: SdkRun): void {
  if (run.code !== 0 || run.result === undefined) {
    throw new Error(`SDK script exited ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
  }
}

/** Polls `probe` until it returns a truthy value (the SDK flushes in the background). */
export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
