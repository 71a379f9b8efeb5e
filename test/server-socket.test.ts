// The real server on a real port: the entry point starts, and stream_query streams
// JSON Lines over a socket as the SDK reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { startTestApp, PROJECT } from './helpers/test-app.js';
import { start, end, startItem, endItem } from './helpers/calls.js';

test('src/main.ts serves /health on the configured port and stops on SIGTERM', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-main-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: string) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const res = await fetch(`${url}/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a bad flag makes the entry point exit 2 with a message', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', 'abc'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(err, /port must be/);
});

test('stream_query over a socket: 3,000 calls arrive as 3,000 JSON lines, in order', async () => {
  const t = await startTestApp();
  try {
    const starts = Array.from({ length: 3000 }, (_, i) =>
      start({ started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(), inputs: { i } }),
    );
    await t.post('/call/upsert_batch', { batch: starts.flatMap((s) => [startItem(s), endItem(end(s.id))]) });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const res = await fetch(`${address}/calls/stream_query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: PROJECT }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('transfer-encoding'), 'chunked');
    const lines = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 3000);
    assert.deepEqual(
      lines.map((c) => c.inputs.i),
      starts.map((_, i) => i),
    );
  } finally {
    await t.close();
  }
});
