// The SQLite FileStore under the HTTP layer, with 4-byte chunks so every path of the
// chunking shows: pieces across chunk boundaries, staging, commit of a duplicate,
// abort, and the clean-up of an upload a crash interrupted. Also: the incremental file
// digest equals bytesDigest of the whole content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, type SqliteDb } from '../src/storage/sqlite/engine/database.js';
import { SQLITE_MIGRATIONS } from '../src/storage/sqlite/engine/migrations/index.js';
import { createSqliteFileStore } from '../src/storage/sqlite/files/file-store.js';
import { dropInterruptedUploads } from '../src/storage/sqlite/files/file-writes.js';
import { createInlineWriter, createSqliteWriter } from '../src/storage/sqlite/engine/writer.js';
import type { FileStore } from '../src/storage/files/file-store.js';
import { bytesDigest } from '../src/service/json/digest.js';
import { createBytesDigester } from '../src/service/files/file-digest.js';

const CHUNK = 4;

async function withStore(fn: (store: FileStore, db: SqliteDb, path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-files-'));
  const path = join(dir, 'weft.sqlite');
  const db = openSqlite(path, SQLITE_MIGRATIONS);
  // The worker-thread writer, as the server runs it: chunks cross a thread boundary.
  const writer = createSqliteWriter(db, path);
  try {
    await fn(createSqliteFileStore(db, writer, CHUNK), db, path);
  } finally {
    await writer.close();
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const count = (db: SqliteDb, table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
const chunkSizes = (db: SqliteDb) =>
  db.prepare('SELECT length(data) FROM file_chunks ORDER BY blob_id, seq').pluck().all() as number[];

async function readAll(store: FileStore, project: string, digest: string): Promise<Buffer | null> {
  const content = await store.open(project, digest);
  if (content === null) return null;
  const parts: Uint8Array[] = [];
  for await (const c of content.chunks) parts.push(c);
  const out = Buffer.concat(parts);
  assert.equal(out.length, content.size_bytes);
  return out;
}

async function put(store: FileStore, project: string, pieces: string[]): Promise<{ digest: string; created: boolean }> {
  const up = await store.beginUpload();
  for (const p of pieces) await up.write(Buffer.from(p));
  const digest = bytesDigest(Buffer.from(pieces.join('')));
  return { digest, ...(await up.commit(project, digest)) };
}

test('the incremental digest equals bytesDigest, however the content is cut', () => {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31) & 0xff));
  for (const cut of [1, 3, 64, 999, 1000]) {
    const d = createBytesDigester();
    for (let at = 0; at < bytes.length; at += cut) d.update(bytes.subarray(at, at + cut));
    assert.equal(d.digest(), bytesDigest(bytes), `pieces of ${cut}`);
  }
  assert.equal(createBytesDigester().digest(), bytesDigest(new Uint8Array(0)));
});

test('pieces of any size are re-cut into full chunks; the content reads back whole', async () => {
  await withStore(async (store, db) => {
    const { digest, created } = await put(store, 'e/p', ['a', 'bcdefg', '', 'hijklmnopq', 'r']);
    assert.equal(created, true);
    assert.deepEqual(chunkSizes(db), [4, 4, 4, 4, 2]);
    assert.equal((await readAll(store, 'e/p', digest))!.toString(), 'abcdefghijklmnopqr');
    const empty = await put(store, 'e/p', []);
    assert.equal((await readAll(store, 'e/p', empty.digest))!.length, 0);
    assert.equal(await store.totalSize('e/p'), 18);
    assert.equal(await store.totalSize('other/p'), 0);
    assert.equal(await store.open('other/p', digest), null);
    assert.equal(count(db, 'file_uploads'), 0);
  });
});

test('a duplicate commit discards its staged chunks; a small duplicate writes nothing', async () => {
  await withStore(async (store, db) => {
    const first = await put(store, 'e/p', ['0123456789']);
    const before = { files: count(db, 'files'), chunks: count(db, 'file_chunks') };
    const again = await put(store, 'e/p', ['01234', '56789']);
    assert.deepEqual(again, { ...first, created: false });
    assert.deepEqual({ files: count(db, 'files'), chunks: count(db, 'file_chunks') }, before);
    // The same bytes in another project are that project's own file.
    assert.equal((await put(store, 'e/q', ['0123456789'])).created, true);
    assert.equal(count(db, 'files'), 2);
  });
});

test('abort drops the staged chunks; the upload is finished after commit or abort', async () => {
  await withStore(async (store, db) => {
    const up = await store.beginUpload();
    await up.write(Buffer.from('staged-content'));
    assert.equal(count(db, 'file_chunks'), 3);
    assert.equal(count(db, 'file_uploads'), 1);
    await up.abort();
    await up.abort();
    assert.equal(count(db, 'file_chunks'), 0);
    assert.equal(count(db, 'file_uploads'), 0);
    await assert.rejects(up.write(Buffer.from('x')));

    const done = await store.beginUpload();
    await done.write(Buffer.from('kept'));
    await done.commit('e/p', bytesDigest(Buffer.from('kept')));
    await done.abort(); // no-op after commit
    assert.equal((await readAll(store, 'e/p', bytesDigest(Buffer.from('kept'))))!.toString(), 'kept');
    await assert.rejects(done.commit('e/p', 'again'));
  });
});

test('chunks of an upload interrupted by a crash are removed when the store opens again', async () => {
  await withStore(async (store, db, path) => {
    const kept = await put(store, 'e/p', ['survives']);
    const up = await store.beginUpload();
    await up.write(Buffer.from('never committed'));
    assert.ok(count(db, 'file_chunks') > 2);
    db.close(); // the process dies mid-upload
    const reopened = openSqlite(path, SQLITE_MIGRATIONS);
    try {
      dropInterruptedUploads(reopened); // what opening the store does
      const store2 = createSqliteFileStore(reopened, createInlineWriter(reopened), CHUNK);
      assert.equal(count(reopened, 'file_uploads'), 0);
      assert.equal(count(reopened, 'file_chunks'), 2);
      assert.equal((await readAll(store2, 'e/p', kept.digest))!.toString(), 'survives');
    } finally {
      reopened.close();
    }
  });
});

test('reading stops early without holding anything: a second reader is unaffected', async () => {
  await withStore(async (store) => {
    const { digest } = await put(store, 'e/p', ['abcdefghijkl']);
    const content = (await store.open('e/p', digest))!;
    for await (const c of content.chunks) {
      assert.equal(Buffer.from(c).toString(), 'abcd');
      break;
    }
    assert.equal((await readAll(store, 'e/p', digest))!.toString(), 'abcdefghijkl');
  });
});
