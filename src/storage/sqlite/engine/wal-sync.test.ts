// walSync on real files: a file that exists is synced, a missing one is an error (never a
// silent success), and a sync opens the file by name each time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { walSync } from './wal-sync.js';

test('walSync syncs the file at its path, and reports a missing file as an error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-walsync-'));
  try {
    const path = join(dir, 'db-wal');
    const sync = walSync(path);
    assert.equal(sync()?.code, 'ENOENT');
    writeFileSync(path, 'frames');
    assert.equal(sync(), null);
    renameSync(path, join(dir, 'moved'));
    assert.equal(sync()?.code, 'ENOENT', 'a file moved away is not synced through an old descriptor');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
