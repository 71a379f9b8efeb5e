// Files against the body limit (413 JSON, with and without a Content-Length, nothing left
// behind), and a 160 MiB file streamed in and out while the server's memory stays flat (40 MiB,
// memory not asserted, on ClickHouse in process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTableCounts } from './helpers/files.js';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';
import { testEngine } from './helpers/clickhouse-engine.js';

const MiB = 1024 * 1024;
const sdkDigest = (b: Uint8Array) =>
  createHash('sha256').update(b).digest('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');
const encode = (hash: ReturnType<typeof createHash>) => hash.digest('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');

function form(bytes: Blob): FormData {
  const fd = new FormData();
  fd.append('project_id', P);
  fd.append('file', bytes, 'blob');
  return fd;
}

/** The same multipart body as a stream of 64 KiB pieces: fetch then sends it chunked, without Content-Length. */
function chunkedForm(bytes: Buffer): { body: ReadableStream<Uint8Array>; type: string } {
  const boundary = 'weft-test-boundary';
  const whole = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${P}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (at >= whole.length) return ctrl.close();
      ctrl.enqueue(whole.subarray(at, at + 64 * 1024));
      at += 64 * 1024;
    },
  });
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

const counts = (t: TestApp) => fileTableCounts(t);

test('a file over the body limit is a 413 JSON answer and leaves nothing behind', async () => {
  const limit = 2 * MiB;
  const t = await startTestApp({ bodyLimit: limit });
  try {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const create = (init: RequestInit) => fetch(`${url}/file/create`, { method: 'POST', ...init });

    // With Content-Length (undici's FormData): refused before the body is read.
    const big = randomBytes(3 * MiB);
    const r1 = await create({ body: form(new Blob([big])) });
    assert.equal(r1.status, 413);
    const b1 = (await r1.json()) as any;
    assert.equal(b1.error_code, 'REQUEST_TOO_LARGE');
    assert.match(b1.reason, /Request too large/);

    // Chunked, no Content-Length: busboy stops at the limit after chunks were staged; the cut file is dropped.
    const { body, type } = chunkedForm(big);
    const r2 = await create({ body, headers: { 'content-type': type }, duplex: 'half' } as RequestInit);
    assert.equal(r2.status, 413);
    assert.equal(((await r2.json()) as any).error_code, 'REQUEST_TOO_LARGE');
    assert.deepEqual(await counts(t), { files: 0, chunks: 0, staged: 0 });

    // Under the limit both ways still works, on the same server.
    const fits = randomBytes(limit - 64 * 1024);
    const r3 = await create({ body: form(new Blob([fits])) });
    assert.equal(r3.status, 200);
    assert.equal(((await r3.json()) as any).digest, sdkDigest(fits));
    const streamed = chunkedForm(fits);
    const r4 = await create({
      body: streamed.body,
      headers: { 'content-type': streamed.type },
      duplex: 'half',
    } as RequestInit);
    assert.equal(((await r4.json()) as any).digest, sdkDigest(fits));
    assert.deepEqual((await t.post('/files/stats', { project_id: P })).body, { total_size_bytes: fits.length });
  } finally {
    await t.close();
  }
});

test('a small body limit applies to files too (413 JSON)', async () => {
  const t = await startTestApp({ bodyLimit: 4096 });
  try {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const r = await fetch(`${url}/files/create`, { method: 'POST', body: form(new Blob([Buffer.alloc(8192, 1)])) });
    assert.equal(r.status, 413);
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(((await r.json()) as any).error_code, 'REQUEST_TOO_LARGE');
    const ok = await fetch(`${url}/files/create`, { method: 'POST', body: form(new Blob([Buffer.alloc(1024, 1)])) });
    assert.equal(ok.status, 200);
  } finally {
    await t.close();
  }
});

/**
 * Runs a client in a child process, so that this process's memory is the server's alone.
 * It uploads the file the way the SDK does (a file-backed Blob in undici's FormData) and
 * reads it back, hashing the answer as it streams; it prints what it saw as JSON.
 */
function runClient(
  url: string,
  path: string,
  project = P,
): Promise<{ digest: string; readBack: string; received: number; contentLength: string | null }> {
  const script = `
    const { openAsBlob } = require('node:fs');
    const { createHash } = require('node:crypto');
    const enc = (h) => h.digest('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');
    (async () => {
      const [url, path, project] = process.argv.slice(1);
      const fd = new FormData();
      fd.append('project_id', project);
      fd.append('file', await openAsBlob(path), 'blob');
      const up = await fetch(url + '/file/create', { method: 'POST', body: fd });
      if (up.status !== 200) throw new Error('upload: ' + up.status + ' ' + await up.text());
      const { digest } = await up.json();
      const down = await fetch(url + '/file/content', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: project, digest }) });
      const hash = createHash('sha256');
      let received = 0;
      for await (const chunk of down.body) { hash.update(chunk); received += chunk.length; }
      console.log(JSON.stringify({ digest, readBack: enc(hash), received, contentLength: down.headers.get('content-length') }));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, url, path, project], (err, stdout, stderr) => {
      if (err) reject(new Error(`client failed: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

test('a large file streams in and out: exact digest; 160 MiB with server memory far below it on SQLite', async (ctx) => {
  // Memory is asserted on SQLite only (below), which needs a file larger than what the GC lets
  // pile up; on ClickHouse (chdb, ~5x slower a chunk in process) 40 MiB still spans 40 chunks.
  const SIZE = (testEngine() === 'clickhouse' ? 40 : 160) * MiB;
  const dir = mkdtempSync(join(tmpdir(), 'weft-bigfile-'));
  const t = await startTestApp({ bodyLimit: 256 * MiB });
  try {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const writeRandomFile = (name: string, size: number): [string, string] => {
      const path = join(dir, name);
      const hash = createHash('sha256');
      const fd = openSync(path, 'w');
      for (let i = 0; i < size / MiB; i++) {
        const piece = randomBytes(MiB);
        hash.update(piece);
        writeSync(fd, piece);
      }
      closeSync(fd);
      return [path, encode(hash)];
    };
    const [warmPath] = writeRandomFile('warm.bin', 16 * MiB);
    const [path, expected] = writeRandomFile('big.bin', SIZE);
    const mb = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
    /** Runs the client while sampling this process's RSS; returns what the client saw and the peak growth. */
    const measured = async (file: string, project: string) => {
      const base = process.memoryUsage().rss;
      let peak = base;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 5);
      try {
        const seen = await runClient(url, file, project);
        return { seen, base, growth: Math.max(peak, process.memoryUsage().rss) - base };
      } finally {
        clearInterval(sampler);
      }
    };
    // The first large transfer of a process grows the allocator's arenas and lets socket
    // buffers pile up until the GC runs; that happens once whatever the file size, so the
    // measurement starts after a 16 MiB round trip.
    const warm = await measured(warmPath, 'warm-entity/warm-project');
    const { seen, base, growth } = await measured(path, P);
    assert.equal(seen.digest, expected);
    assert.equal(seen.readBack, expected);
    assert.equal(seen.received, SIZE);
    assert.equal(seen.contentLength, String(SIZE));
    ctx.diagnostic(
      `server rss: warm-up 16 MiB round trip grew it by ${mb(warm.growth)}; then from ${mb(base)} the ${mb(SIZE)} upload + download grew it by ${mb(growth)} at peak`,
    );
    // Holding the file whole would grow RSS by at least its size on top of the socket
    // buffers the GC has not collected yet. Streaming leaves the chunks already sent as
    // garbage until V8 collects it, which it does once about 64 MiB of buffers have piled up
    // (measured on Node 24: 51-64 MiB for a 50 MiB file; 7-22 MiB on Node 20; 102-129 MiB for
    // this 160 MiB one under the full CI load, where collections lag): bounded, whatever the
    // file's size, so the file is larger than that bound. A file held whole grows RSS by 160 MiB
    // or more; the bound (144 MiB) sits between the two.
    if (testEngine() === 'clickhouse') {
      // chdb runs ClickHouse inside this process: its buffers and caches are the engine's
      // memory, which a real deployment keeps on the ClickHouse server.
      ctx.diagnostic('ClickHouse in process: memory growth not asserted');
    } else {
      assert.ok(growth < SIZE * 0.9, `server rss grew by ${mb(growth)}`);
    }
    assert.deepEqual(await counts(t), { files: 2, chunks: 16 + SIZE / MiB, staged: 0 });
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
