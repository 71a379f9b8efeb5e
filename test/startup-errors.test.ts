// What stops Weft from starting is one line naming the problem and the fix, exit code 1, no
// stack trace (unless WEFT_LOG_LEVEL=debug): a file that is not a database, a database of a
// newer Weft, a busy port, a data dir that cannot be made; the CLI says the same.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cli, serve, tempDirs } from './helpers/weft-process.js';
import { SQLITE_MIGRATIONS } from '../src/storage/sqlite/engine/migrations/index.js';

const dirs = tempDirs('weft-startup-');
after(() => dirs.removeAll());

/** The server's exit: code and stderr; it must not start. */
async function refused(args: string[]) {
  const s = await serve(args);
  s.stop();
  assert.equal(s.port, undefined, 'it should not have started');
  return { code: s.code, stderr: s.stderr };
}

function assertOneLine(stderr: string, message: RegExp) {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.match(lines[0]!, /^weft: /);
  assert.match(lines[0]!, message);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
}

test('a file that is not a database', async () => {
  const dir = dirs.make();
  writeFileSync(
    join(dir, 'weft.sqlite'),
    'this is not a database, it is a text file that happens to sit here'.repeat(100),
  );
  const r = await refused(['--data-dir', dir]);
  assert.equal(r.code, 1);
  assertOneLine(
    r.stderr,
    new RegExp(`${join(dir, 'weft.sqlite')} is not a Weft database .*: move it away, or point WEFT_DATA_DIR`),
  );
  const c = cli(dir, 'list');
  assert.equal(c.code, 1);
  assertOneLine(c.err, /is not a Weft database/);
});

test('a database written by a newer Weft is refused and left untouched', async () => {
  const dir = dirs.make();
  const file = join(dir, 'weft.sqlite');
  const db = new Database(file);
  const newer = Math.max(...SQLITE_MIGRATIONS.map((m) => m.version)) + 3;
  db.pragma(`user_version = ${newer}`);
  db.close();
  const r = await refused(['--data-dir', dir]);
  assert.equal(r.code, 1);
  assertOneLine(
    r.stderr,
    new RegExp(`was written by a newer Weft \\(schema ${newer}; this Weft knows schemas up to ${newer - 3}\\)`),
  );
  const again = new Database(file, { readonly: true });
  assert.equal(again.pragma('user_version', { simple: true }), newer);
  again.close();
});

test('a busy port names the port and the setting to change', async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const port = (blocker.address() as { port: number }).port;
  try {
    const r = await refused(['--data-dir', dirs.make(), '--port', String(port)]);
    assert.equal(r.code, 1);
    assertOneLine(r.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use: .* PORT \\(--port\\)`));
  } finally {
    blocker.close();
  }
});

test('a data dir that cannot be created (under a file) names the path and the reason', async () => {
  const base = dirs.make();
  writeFileSync(join(base, 'a-file'), 'x');
  const dataDir = join(base, 'a-file', 'data');
  const r = await refused(['--data-dir', dataDir]);
  assert.equal(r.code, 1);
  assertOneLine(
    r.stderr,
    new RegExp(
      `cannot create the data directory ${dataDir.replace(/[/.]/g, '\\$&')} \\(.*ENOTDIR.*\\): point WEFT_DATA_DIR`,
    ),
  );
});

test('a data dir Weft may not write: one line (the suite runs as root, so a read-only mount makes it so)', async () => {
  const dir = dirs.make();
  mkdirSync(join(dir, 'ro'));
  const { execFileSync } = await import('node:child_process');
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', join(dir, 'ro')]);
  try {
    const r = await refused(['--data-dir', join(dir, 'ro')]);
    assert.equal(r.code, 1);
    assertOneLine(r.stderr, /cannot (open .* for writing|create the data directory)|not allowed|read-only/i);
  } finally {
    execFileSync('umount', ['-l', join(dir, 'ro')]);
  }
});

test('WEFT_LOG_LEVEL=debug adds the stack', async () => {
  const dir = dirs.make();
  writeFileSync(join(dir, 'weft.sqlite'), 'not a database'.repeat(500));
  const r = await refused(['--data-dir', dir, '--log-level', 'debug']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /is not a Weft database/);
  assert.match(r.stderr, /\n\s+at /);
});
