// The writer on a real SQLite file, through its worker thread: acknowledged writes are
// committed and visible to other connections, results cross the thread, a failing job of a
// group fails alone, close waits, the bound sheds only sheddable jobs, the WAL reaches
// the database file through the checkpointer thread, not the writer's commits, and no write
// is acknowledged before the writer has synced the WAL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from './database.js';
import { SQLITE_MIGRATIONS } from './migrations/index.js';
import { createSqliteWriter, SqliteWriteError } from './writer.js';
import { WriteQueueFullError } from '../../calls/call-store.js';
import { ServiceUnavailableError } from '../../../api/errors.js';
import { startValues, type CallRow } from '../calls/call-writes.js';
import type { CallStartPart } from '../../calls/call-store.js';

async function withWriter(
  fn: (w: ReturnType<typeof createSqliteWriter>, ids: () => string[], path: string) => Promise<void>,
) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-writer-'));
  const path = join(dir, 'w.sqlite');
  const db = openSqlite(path, SQLITE_MIGRATIONS);
  const writer = createSqliteWriter(db, path);
  try {
    await fn(writer, () => db.prepare('SELECT id FROM calls ORDER BY id').pluck().all() as string[], path);
  } finally {
    await writer.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const start = (id: string): CallStartPart => ({
  project_id: 'e/p',
  id,
  trace_id: 't',
  parent_id: null,
  thread_id: null,
  turn_id: null,
  op_name: 'op',
  display_name: null,
  started_at: 1,
  attributes: '{}',
  inputs: '{}',
  input_refs: [],
  wb_user_id: null,
  wb_run_id: null,
  wb_run_step: null,
  expire_at: null,
});
const row = (id: string): CallRow => [0, ['e/p', id, ...startValues(start(id), 0)]];

test('an acknowledged write is committed and visible to another connection', async () => {
  await withWriter(async (w, ids) => {
    await w.run('calls.write', [[row('a'), row('b')]]);
    assert.deepEqual(ids(), ['a', 'b']);
  });
});

test('results come back from the worker', async () => {
  await withWriter(async (w) => {
    const v = {
      project_id: 'e/p',
      object_id: 'o',
      digest: 'd1',
      kind: 'object' as const,
      base_object_class: null,
      leaf_object_class: null,
      val: '{}',
      wb_user_id: null,
      created_at: 1,
    };
    assert.deepEqual(await w.run('objects.create', [v]), { digest: 'd1', version_index: 0, created: true });
    assert.deepEqual(await w.run('objects.create', [v]), { digest: 'd1', version_index: 0, created: false });
    assert.equal(await w.run('calls.delete', ['e/p', ['nope'], 5]), 1);
  });
});

test('jobs written together: a failing one is rejected alone with its SQLite code, the others commit', async () => {
  await withWriter(async (w, ids) => {
    const bad: CallRow = [0, [null, 'x', ...startValues(start('x'), 0)]];
    const results = await Promise.allSettled([
      w.run('calls.write', [[row('c1')]]),
      w.run('calls.write', [[row('c2')]]),
      w.run('calls.write', [[row('c3'), bad]]),
      w.run('calls.write', [[row('c4')]]),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    const err = (results[2] as PromiseRejectedResult).reason;
    assert.ok(err instanceof SqliteWriteError);
    assert.match(err.code ?? '', /^SQLITE_CONSTRAINT/);
    assert.deepEqual(ids(), ['c1', 'c2', 'c4'], 'the failed job left nothing behind');
  });
});

test('close waits for outstanding writes', async () => {
  await withWriter(async (w, ids) => {
    const pending = w.run('calls.write', [[row('late')]]);
    await w.close();
    await pending;
    assert.deepEqual(ids(), ['late']);
  });
});

test('over the bound, sheddable jobs are refused and others still queue', async () => {
  await withWriter(async (w, ids) => {
    w.limit(10);
    const first = w.run('calls.write', [[row('q1')]], { bytes: 8, sheddable: true });
    await assert.rejects(w.run('calls.write', [[row('q2')]], { bytes: 8, sheddable: true }), WriteQueueFullError);
    const other = w.run('calls.write', [[row('q3')]], { bytes: 8 });
    assert.equal(w.queuedBytes(), 16);
    await Promise.all([first, other]);
    assert.equal(w.queuedBytes(), 0);
    assert.deepEqual(ids(), ['q1', 'q3']);
  });
});

test('committed pages reach the database file soon after the commits, copied by the checkpointer thread', async () => {
  await withWriter(async (w, ids, path) => {
    const before = statSync(path).size;
    const inputs = JSON.stringify({ text: 'x'.repeat(1000) });
    // ~3 MB of rows, far below the WAL size at which the writer would checkpoint by itself.
    for (let batch = 0; batch < 10; batch++) {
      const rows: CallRow[] = Array.from({ length: 200 }, (_, i) => [
        0,
        ['e/p', `r${batch}-${i}`, ...startValues({ ...start(`r${batch}-${i}`), inputs }, 0)],
      ]);
      await w.run('calls.write', [rows]);
    }
    assert.equal(ids().length, 2000);
    const deadline = Date.now() + 5000;
    while (statSync(path).size < before + 2_000_000 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.ok(
      statSync(path).size >= before + 2_000_000,
      `the database file grew from ${before} to ${statSync(path).size} bytes only`,
    );
  });
});

test('a write is acknowledged only after the writer synced the WAL file: with that file gone, writes fail with 503', {
  skip: process.platform !== 'linux' && 'the writer syncs the WAL itself on Linux only (sqlite/engine/wal-sync.ts)',
}, async () => {
  await withWriter(async (w, ids, path) => {
    await w.run('calls.write', [[row('before')]]);
    // SQLite keeps writing through its open descriptor; the writer's sync opens the file by name.
    unlinkSync(`${path}-wal`);
    const results = await Promise.allSettled([
      w.run('calls.write', [[row('a1')]]),
      w.run('objects.create', [
        {
          project_id: 'e/p',
          object_id: 'o',
          digest: 'd',
          kind: 'object',
          base_object_class: null,
          leaf_object_class: null,
          val: '{}',
          wb_user_id: null,
          created_at: 1,
        },
      ]),
    ]);
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      const err = (r as PromiseRejectedResult).reason;
      assert.ok(err instanceof ServiceUnavailableError, String(err));
      assert.match(err.message, /could not be made durable: fdatasync of .*-wal failed \(ENOENT\)/);
    }
    // Committed, so other connections see it, but never acknowledged: a client sends it again.
    assert.deepEqual(ids(), ['a1', 'before']);
  });
});
