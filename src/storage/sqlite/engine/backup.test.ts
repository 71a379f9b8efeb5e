// backupSqlite on its own: a one-file copy, and what a failed, interrupted or refused backup
// leaves behind (nothing under the target's name, no temporary file).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from './database.js';
import { SQLITE_MIGRATIONS } from './migrations/index.js';
import { backupSqlite } from './backup.js';

const root = mkdtempSync(join(tmpdir(), 'weft-sqlite-backup-'));
after(() => rmSync(root, { recursive: true, force: true }));
const dir = () => mkdtempSync(join(root, 'd-'));

/** A Weft database of a few thousand pages, left open (WAL, with uncheckpointed rows). */
function weftDb(path: string, rows = 3000) {
  const db = openSqlite(path, SQLITE_MIGRATIONS);
  db.pragma('wal_autocheckpoint = 0');
  const put = db.prepare(
    "INSERT INTO files (project_id, digest, blob_id, size_bytes, n_chunks, created_at) VALUES ('e/p', ?, ?, 0, 0, 0)",
  );
  db.transaction(() => {
    for (let i = 0; i < rows; i++) put.run(`digest-${i}-${'x'.repeat(1000)}`, i);
  })();
  return db;
}

/** Runs `body` on a fresh directory holding an open Weft database, `source`. */
async function withWeftDb(body: (d: string, source: string) => Promise<void>): Promise<void> {
  const d = dir();
  const db = weftDb(join(d, 'weft.sqlite'));
  try {
    await body(d, join(d, 'weft.sqlite'));
  } finally {
    db.close();
  }
}

const count = (path: string) => {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return {
      n: (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n,
      mode: db.pragma('journal_mode', { simple: true }),
      check: db.pragma('integrity_check', { simple: true }),
    };
  } finally {
    db.close();
  }
};

test('the copy holds the WAL content, is one file in rollback mode, and passes integrity_check', () =>
  withWeftDb(async (d, source) => {
    assert.ok(readFileSync(`${source}-wal`).length > 0, 'the rows are in the WAL');
    const steps: number[] = [];
    const r = await backupSqlite(source, join(d, 'copy.sqlite'), { verify: true, onProgress: (c) => steps.push(c) });
    // 3,000 rows of ~1 KB, all still in the WAL.
    assert.ok(r.bytes > 3 * 1024 * 1024 && r.schema > 0, JSON.stringify(r));
    const probe = new Database(source, { readonly: true });
    const pageSize = probe.pragma('page_size', { simple: true }) as number;
    probe.close();
    assert.ok(
      steps.length > 1 && steps.at(-1)! * pageSize === r.bytes,
      `steps ${steps.join(',')} of ${pageSize} bytes`,
    );
    assert.deepEqual(
      readdirSync(d).filter((f) => f.startsWith('copy') || f.startsWith('.copy')),
      ['copy.sqlite'],
    );
    assert.deepEqual(count(join(d, 'copy.sqlite')), { n: 3000, mode: 'delete', check: 'ok' });
  }));

test('an abort stops the copy and leaves neither the target nor a temporary file', () =>
  withWeftDb(async (d, source) => {
    const ac = new AbortController();
    await assert.rejects(
      backupSqlite(source, join(d, 'copy.sqlite'), {
        signal: ac.signal,
        onProgress: (c) => {
          if (c > 0) ac.abort();
        },
      }),
      { name: 'AbortError' },
    );
    assert.deepEqual(readdirSync(d).sort(), ['weft.sqlite', 'weft.sqlite-shm', 'weft.sqlite-wal']);
  }));

test('a target that appears during the copy is kept unless replacing', () =>
  withWeftDb(async (d, source) => {
    const target = join(d, 'copy.sqlite');
    await assert.rejects(backupSqlite(source, target, { onProgress: () => writeFileSync(target, 'mine') }), {
      code: 'EEXIST',
    });
    assert.equal(readFileSync(target, 'utf8'), 'mine');
    writeFileSync(`${target}-journal`, 'a stale journal');
    await backupSqlite(source, target, { replace: true });
    assert.ok(!existsSync(`${target}-journal`), 'a stale journal would be rolled back into the copy');
    assert.deepEqual(count(target), { n: 3000, mode: 'delete', check: 'ok' });
    assert.ok(!readdirSync(d).some((f) => f.endsWith('.partial')));
  }));

test('a file that is not a Weft database is refused, and nothing is written', async () => {
  const d = dir();
  writeFileSync(join(d, 'weft.sqlite'), 'not a database at all, but long enough to have a header............');
  await assert.rejects(backupSqlite(join(d, 'weft.sqlite'), join(d, 'copy.sqlite')), {
    name: 'StartupError',
    message: /cannot read .*SQLITE_NOTADB/,
  });
  const other = new Database(join(d, 'other.sqlite'));
  other.exec('CREATE TABLE t (x)');
  other.close();
  await assert.rejects(backupSqlite(join(d, 'other.sqlite'), join(d, 'copy.sqlite')), {
    name: 'StartupError',
    message: /is not a Weft database/,
  });
  assert.deepEqual(readdirSync(d).sort(), ['other.sqlite', 'weft.sqlite']);
});
