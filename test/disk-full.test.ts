// A full disk, for real: the data dir on a small tmpfs (mounted here; the tests run as root,
// as in CI), a server ingesting until the filesystem is full. Writes then answer 507 with a
// JSON body that says the disk is full and where, never a 500; reads keep working; /health says
// degraded and why; once space returns writes are accepted again, and every acknowledged call
// is there.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { serve, tempDirs } from './helpers/weft-process.js';
import { end, endItem, start, startItem } from './helpers/calls.js';

const P = 'disk/full';
const dirs = tempDirs('weft-disk-full-');
let mounted: string | null = null;
after(() => {
  if (mounted) execFileSync('umount', ['-l', mounted]);
  dirs.removeAll();
});

test('a full disk: 507 with a clear body on writes, reads and /health work, writes resume when space returns', {
  timeout: 120_000,
}, async () => {
  const mnt = dirs.make();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mnt]);
  } catch (err) {
    assert.fail(`this test mounts a 64 MiB tmpfs and must run as root (as CI does): ${String(err)}`);
  }
  mounted = mnt;
  const dataDir = join(mnt, 'data');
  const server = await serve(['--data-dir', dataDir]);
  assert.ok(server.port, server.stderr);
  const url = `http://127.0.0.1:${server.port}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.notEqual(res.status, 500, `${path} answered 500: ${text}`);
    return {
      status: res.status,
      headers: res.headers,
      body: text.startsWith('{') ? JSON.parse(text) : undefined,
      text,
    };
  };
  const assert507 = (r: Awaited<ReturnType<typeof post>>, what: string) => {
    assert.equal(r.status, 507, `${what}: ${r.text}`);
    assert.equal(r.body.error_code, 'STORAGE_FULL');
    assert.match(r.body.reason, new RegExp(`The disk holding ${dataDir.replace(/[/.]/g, '\\$&')}.* is full`));
    assert.equal(typeof r.body.retry_after, 'number');
    assert.equal(r.headers.get('retry-after'), String(r.body.retry_after));
  };
  try {
    // Leave a few MiB free, then ingest calls of ~100 KB until the disk is full.
    writeFileSync(join(mnt, 'filler'), Buffer.alloc(56 * 1024 * 1024));
    const acked: string[] = [];
    let full = null;
    for (let i = 0; i < 200 && full === null; i++) {
      const calls = Array.from({ length: 10 }, () =>
        start({ project_id: P, inputs: { blob: randomBytes(75_000).toString('base64') } }),
      );
      const r = await post('/call/upsert_batch', {
        batch: calls.flatMap((s) => [startItem(s), endItem(end(s.id, { project_id: P }))]),
      });
      if (r.status === 200) acked.push(...calls.map((c) => c.id));
      else full = r;
    }
    assert.ok(full !== null, 'the disk filled up');
    assert507(full, '/call/upsert_batch');
    assert.ok(acked.length > 0, 'some batches went in before');
    // Take the last free bytes too, then every kind of write that needs space answers 507.
    try {
      writeFileSync(join(mnt, 'filler2'), Buffer.alloc(64 * 1024 * 1024));
    } catch {
      /* ENOSPC: the disk is now full */
    }
    // 12 MB: more than the whole tmpfs had free before the filler, so it cannot fit in WAL
    // space SQLite already holds (a 600 KB write sometimes did, after a checkpoint let the
    // writer reuse the WAL file from its start).
    const big = randomBytes(9_000_000).toString('base64');
    const s = start({ project_id: P, inputs: { big } });
    assert507(await post('/call/start', { start: s }), '/call/start');
    assert507(
      await post(`/v2/${P}/calls/complete`, { batch: [{ ...s, ended_at: s.started_at, output: big, summary: null }] }),
      'v2 calls/complete',
    );
    assert507(await post('/obj/create', { obj: { project_id: P, object_id: 'big', val: { big } } }), '/obj/create');
    assert507(await post('/table/create', { table: { project_id: P, rows: [{ big }] } }), '/table/create');
    // Small writes may still fit in space SQLite already holds: 200 or 507, never anything else.
    for (const [path, body] of [
      [
        '/feedback/create',
        {
          project_id: P,
          weave_ref: `weave:///${P}/call/${acked[0]}`,
          feedback_type: 'note',
          payload: { note: big.slice(0, 500_000) },
        },
      ],
      ['/cost/create', { project_id: P, costs: { m: { prompt_token_cost: 1, completion_token_cost: 1 } } }],
    ] as const) {
      const r = await post(path, body);
      if (r.status !== 200) assert507(r, path);
    }
    // Reads keep working; /health says degraded, and why.
    const count = await post('/calls/query_stats', { project_id: P });
    assert.equal(count.status, 200);
    assert.equal(count.body.count, acked.length);
    const health = await fetch(`${url}/health`);
    assert.equal(health.status, 200);
    const h = (await health.json()) as { status: string; reason: string; since: string };
    assert.equal(h.status, 'degraded');
    assert.match(h.reason, /is full/);
    assert.ok(!Number.isNaN(Date.parse(h.since)));
    // A small write that still fits does not end the spell: the disk is still full.
    await post('/cost/create', { project_id: P, costs: { n: { prompt_token_cost: 1, completion_token_cost: 1 } } });
    assert.equal(((await (await fetch(`${url}/health`)).json()) as { status: string }).status, 'degraded');

    // Space returns: the same write is accepted, /health is ok again, nothing acknowledged was lost.
    rmSync(join(mnt, 'filler'));
    rmSync(join(mnt, 'filler2'), { force: true });
    const retry = await post('/call/start', { start: s });
    assert.equal(retry.status, 200, retry.text);
    assert.deepEqual(await (await fetch(`${url}/health`)).json(), { status: 'ok' });
    const after = await post('/calls/query_stats', { project_id: P, filter: { call_ids: [...acked, s.id] } });
    assert.equal(after.body.count, acked.length + 1);
    assert.equal((await post('/obj/create', { obj: { project_id: P, object_id: 'big', val: { big } } })).status, 200);
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 500));
  }
});
