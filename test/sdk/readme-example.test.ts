// The README's SDK example, run exactly as written against a real Weft.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { eventually, startWeftServer, type WeftServer } from './sdk-harness.js';
import { jsonl } from '../helpers/calls.js';

let w: WeftServer;
before(async () => {
  w = await startWeftServer();
});
after(async () => {
  await w.close();
});

function readmeExample(): string {
  const readme = readFileSync(resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const m = /<!-- example: sdk-quickstart[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, 'the README has the sdk-quickstart example');
  return m[1]!;
}

test('the README example runs as written and its call is stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-readme-'));
  try {
    // `npm install weave` in the user's folder: here, a link to the installed package.
    const weaveDir = dirname(dirname(createRequire(import.meta.url).resolve('weave')));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(weaveDir, join(dir, 'node_modules', 'weave'), 'dir');
    writeFileSync(join(dir, 'example.js'), readmeExample());
    const child = spawn(process.execPath, ['example.js'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, WF_TRACE_SERVER_URL: w.url, WANDB_API_KEY: 'any-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    assert.equal(code, 0, stderr);
    assert.match(stdout, /HELLO WEFT!/);
    const calls = await eventually(async () => {
      const c = jsonl((await w.t.post('/calls/stream_query', { project_id: 'my-team/my-project' })).text);
      return c.length === 1 && c[0].ended_at ? c : null;
    }, 'the example call');
    assert.equal(calls[0].output, 'HELLO WEFT!');
    assert.deepEqual(calls[0].inputs, { arg0: 'hello weft' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
