// SQLite finds calls by id through key tables of (id key, rowid) pairs (sqlite/calls/call-ids.ts).
// A file rebuilt outside Weft (sqlite3 .dump into a new file) renumbers the rowids; the next
// start must notice and rebuild the pairs, or reads by id would miss calls and ends would
// add second copies of them. SQLite only: ClickHouse has no rowids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestApp, PROJECT } from './helpers/test-app.js';
import { start, end, newId, startItem, endItem } from './helpers/calls.js';
import { SQLITE_FILE } from '../src/storage/sqlite/store.js';

test('SQLite: calls renumbered outside Weft (a dump reloaded) get their id keys rebuilt at the next start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-rekey-'));
  try {
    const callIds = Array.from({ length: 40 }, () => newId().replace(/-/g, '').slice(8));
    const trace = newId();
    let app = await startTestApp({ dataDir: dir });
    const batch = callIds.map((id) => startItem(start({ id, trace_id: trace })));
    assert.equal((await app.post('/call/upsert_batch', { batch })).status, 200);
    await app.close();
    // What `.dump` into a new file does to a table without an INTEGER PRIMARY KEY: rowids from 1 again.
    const db = new Database(join(dir, SQLITE_FILE));
    db.exec(
      'DELETE FROM calls WHERE rowid = (SELECT min(rowid) FROM calls); UPDATE calls SET rowid = rowid + 1000; UPDATE calls SET rowid = rowid - 1001;',
    );
    db.close();
    app = await startTestApp({ dataDir: dir });
    try {
      for (const id of callIds.slice(1))
        assert.equal((await app.post('/call/read', { project_id: PROJECT, id })).body.call?.id, id);
      const ends = callIds.slice(1).map((id) => endItem(end(id, { output: 'done' })));
      assert.equal((await app.post('/call/upsert_batch', { batch: ends })).status, 200);
      const rows = (
        await app.post('/calls/stream_query', {
          project_id: PROJECT,
          filter: { trace_ids: [trace] },
          columns: ['id', 'output'],
        })
      ).text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      assert.equal(rows.length, callIds.length - 1, 'the ends found their calls instead of adding new ones');
      assert.ok(rows.every((r) => r.output === 'done'));
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
