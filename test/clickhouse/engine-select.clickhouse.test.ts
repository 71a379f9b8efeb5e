// Choosing the ClickHouse engine as an operator does: `weft` with --engine clickhouse (or
// WEFT_ENGINE) and a ClickHouse address, here chdb in process (`chdb:<dir>`), which runs the
// same client code as an HTTP server. What a server acknowledged is there after a restart; the
// keys CLI writes to the same database; a ClickHouse that cannot be used stops startup with one line.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CHILD_ENV, ROOT, createdKey, serve, tempDirs } from '../helpers/weft-process.js';

const dirs = tempDirs('weft-ch-engine-');
after(() => dirs.removeAll());

const engineArgs = (dir: string) => ['--engine', 'clickhouse', '--clickhouse-url', `chdb:${join(dir, 'ch')}`];

/** Runs a server until `body` is done, then stops it and waits for its exit (chdb holds its directory). */
async function withServer(args: string[], body: (url: string) => Promise<void>): Promise<void> {
  const s = await serve(args);
  assert.ok(s.port, `the server should start: ${s.stderr}`);
  try {
    await body(`http://127.0.0.1:${s.port}`);
  } finally {
    s.stop();
    await s.exited;
  }
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as any };
}

function keysCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'keys', ...args], {
    cwd: ROOT,
    env: CHILD_ENV,
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((res) => child.on('exit', (code) => res({ code, out, err })));
}

test('a server on ClickHouse keeps what it acknowledged across a restart', async () => {
  const dir = dirs.make();
  const start = {
    project_id: 'e/p',
    op_name: 'hello',
    started_at: '2026-11-23T05:00:00Z',
    attributes: {},
    inputs: { q: 'hi' },
  };
  let id = '';
  await withServer(engineArgs(dir), async (url) => {
    const r = await post(url, '/call/start', { start });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    id = r.body.id;
    assert.equal(
      (
        await post(url, '/call/end', {
          end: { project_id: 'e/p', id, ended_at: '2026-11-23T05:00:01Z', output: 'hello!', summary: {} },
        })
      ).status,
      200,
    );
  });
  await withServer(engineArgs(dir), async (url) => {
    const r = await post(url, '/call/read', { project_id: 'e/p', id });
    assert.equal(r.status, 200);
    assert.equal(r.body.call.output, 'hello!');
    assert.deepEqual(r.body.call.inputs, { q: 'hi' });
    assert.equal(r.body.call.summary.weave.status, 'success');
  });
});

test('weft keys writes to the ClickHouse database the server reads', async () => {
  const dir = dirs.make();
  const created = await keysCli([
    'create',
    '--user',
    'ann',
    '--entity',
    'team',
    '--role',
    'writer',
    ...engineArgs(dir),
  ]);
  assert.equal(created.code, 0, created.err);
  const key = createdKey(created.out);
  await withServer(engineArgs(dir), async (url) => {
    const project = 'team/p';
    const anonymous = await post(url, '/calls/query', { project_id: project });
    assert.equal(anonymous.status, 401);
    const keyed = await post(url, '/calls/query', { project_id: project }, { authorization: `Bearer ${key}` });
    assert.equal(keyed.status, 200, JSON.stringify(keyed.body));
  });
});

test('an unreachable ClickHouse, or a wrong engine name, stops startup with one line', async () => {
  const down = await serve(['--engine', 'clickhouse', '--clickhouse-url', 'http://127.0.0.1:1']);
  assert.equal(down.port, undefined);
  assert.equal(down.code, 1);
  assert.match(
    down.stderr.trim(),
    /^weft: cannot reach ClickHouse at http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\): start it, or set WEFT_CLICKHOUSE_URL/,
  );
  assert.equal(down.stderr.trim().split('\n').length, 1, down.stderr);

  const wrong = await serve(['--engine', 'postgres']);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /engine must be sqlite or clickhouse, got "postgres"/);

  const cluster = await serve(['--engine', 'clickhouse', '--clickhouse-cluster', 'no such cluster']);
  assert.equal(cluster.code, 2);
  assert.match(cluster.stderr, /clickhouseCluster must be a cluster name/);
});
