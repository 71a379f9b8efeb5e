// `weft backup`: a backup taken from a running server under ingest from several clients, restored
// into a new data directory and served, holds every call acknowledged before the backup started,
// finished; and the command's refusals and exit codes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PROJECT } from './helpers/test-app.js';
import { end, endItem, start, startItem } from './helpers/calls.js';
import { CHILD_ENV, ROOT, cli, serve, tempDirs } from './helpers/weft-process.js';

const dirs = tempDirs('weft-backup-');
after(() => dirs.removeAll());

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** `weft backup <args>` as a child process, without blocking this process's event loop. */
function backup(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'backup', ...args], {
    cwd: ROOT,
    env: { ...CHILD_ENV, ...env },
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((res) => child.on('close', (code) => res({ code, out, err })));
}

async function post(port: number, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, text: await r.text() };
}

const BATCH_CALLS = 100;

/** One ingest client: batches of finished calls until stopped; every id of a 200 batch goes to `acked`. */
async function client(port: number, acked: string[], stop: { now: boolean }, errors: string[]): Promise<void> {
  while (!stop.now) {
    const starts = Array.from({ length: BATCH_CALLS }, () => start({ inputs: { payload: 'x'.repeat(2000) } }));
    const batch = starts.flatMap((s) => [startItem(s), endItem(end(s.id, { output: { ok: s.id } }))]);
    const r = await post(port, '/call/upsert_batch', { batch });
    if (r.status === 200) acked.push(...starts.map((s) => s.id));
    else errors.push(`upsert_batch ${r.status}: ${r.text.slice(0, 200)}`);
  }
}

test('a backup taken under ingest, restored, holds every call acknowledged before it started', {
  timeout: 120_000,
}, async (t) => {
  const dataDir = dirs.make();
  const out = join(dirs.make(), 'weft-backup.sqlite');
  const server = await serve(['--data-dir', dataDir]);
  assert.ok(server.port, server.stderr);
  let restored: Awaited<ReturnType<typeof serve>> | undefined;
  try {
    const acked: string[] = [];
    const errors: string[] = [];
    const stop = { now: false };
    const clients = Array.from({ length: 4 }, () => client(server.port!, acked, stop, errors));
    // Enough rows that the copy takes several steps, with the server writing between them.
    while (acked.length < 10_000 && errors.length === 0) await new Promise((r) => setTimeout(r, 50));
    // Taken before the CLI is even spawned, so before its snapshot: each of these must be in the copy.
    const before = acked.slice();
    const ran = await backup([out, '--data-dir', dataDir]);
    const during = acked.length - before.length;
    stop.now = true;
    await Promise.all(clients);
    t.diagnostic(`${before.length} calls acknowledged before the backup, ${during} while it ran; ${ran.err.trim()}`);
    assert.equal(ran.code, 0, ran.err);
    assert.deepEqual(errors, [], 'the backup disturbed the server');
    assert.ok(during > 0, 'no batch was acknowledged while the backup ran: it did not run under ingest');
    const pages = Number(/pages: (\d+) of/.exec(ran.err)?.[1]);
    assert.ok(pages > 2 * 1024, `the copy took one step (${pages} pages): too small to interleave with writes`);

    // One standalone file: no -wal beside it, rollback journal, intact.
    assert.deepEqual(readdirSync(join(out, '..')), ['weft-backup.sqlite']);
    const db = new Database(out, { readonly: true, fileMustExist: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
    } finally {
      db.close();
    }

    // Restore as docs/backups.md says: the file as <data-dir>/weft.sqlite, then start.
    const restoreDir = dirs.make();
    copyFileSync(out, join(restoreDir, 'weft.sqlite'));
    restored = await serve(['--data-dir', restoreDir]);
    assert.ok(restored.port, restored.stderr);
    for (let i = 0; i < before.length; i += 1000) {
      const ids = before.slice(i, i + 1000);
      const r = await post(restored.port!, '/calls/stream_query', {
        project_id: PROJECT,
        filter: { call_ids: ids },
        columns: ['id', 'ended_at', 'output'],
      });
      assert.equal(r.status, 200, r.text);
      const calls = r.text
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { id: string; ended_at: string | null; output: unknown });
      const found = new Map(calls.map((c) => [c.id, c]));
      const missing = ids.filter((id) => !found.has(id));
      assert.deepEqual(
        missing.slice(0, 10),
        [],
        `${missing.length} of ${ids.length} acknowledged calls are missing from the backup`,
      );
      const unfinished = calls
        .filter((c) => !c.ended_at || (c.output as { ok?: string })?.ok !== c.id)
        .map((c) => c.id);
      assert.deepEqual(unfinished.slice(0, 10), [], `${unfinished.length} calls lost their end`);
    }
  } finally {
    server.stop();
    restored?.stop();
    await Promise.all([server.exited, restored?.exited]);
  }
});

test('--help exits 0 with the usage on stdout; bad usage exits 2', async () => {
  const help = await backup(['--help']);
  assert.equal(help.code, 0, help.err);
  assert.match(help.out, /^usage: weft backup FILE \[--data-dir DIR\] \[--force\] \[--verify\]/);
  for (const args of [[], ['a.sqlite', 'b.sqlite'], ['a.sqlite', '--no-such-flag']]) {
    const r = await backup(args, { WEFT_DATA_DIR: dirs.make() });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /usage: weft backup/);
  }
  const badEnv = await backup([join(dirs.make(), 'x.sqlite')], { WEFT_BACKUP_FORCE: 'maybe' });
  assert.equal(badEnv.code, 2, badEnv.err);
});

test('a missing data directory, or one without a database, exits 1 and names it', async () => {
  const missing = join(dirs.make(), 'nope');
  const target = join(dirs.make(), 'x.sqlite');
  const r = await backup([target, '--data-dir', missing]);
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, new RegExp(`the data directory ${missing} does not exist`));
  const empty = await backup([target], { WEFT_DATA_DIR: dirs.make() });
  assert.equal(empty.code, 1, empty.err);
  assert.match(empty.err, /there is no Weft database in .* \(no weft\.sqlite\)/);
  assert.ok(!existsSync(target));
  // Nor is a data directory created, as the server would.
  assert.ok(!existsSync(missing));
});

test('an existing FILE is refused (exit 2, untouched) unless --force or WEFT_BACKUP_FORCE', async () => {
  const dataDir = dirs.make();
  assert.equal(cli(dataDir, 'create', '--user', 'alice', '--entity', 'acme', '--role', 'admin').code, 0);
  const dir = dirs.make();
  const target = join(dir, 'b.sqlite');
  writeFileSync(target, 'an older backup');
  const refused = await backup([target, '--data-dir', dataDir]);
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /exists: pass --force/);
  assert.equal(readFileSync(target, 'utf8'), 'an older backup');
  const forced = await backup([target, '--data-dir', dataDir, '--force', '--verify']);
  assert.equal(forced.code, 0, forced.err);
  assert.match(forced.err, /integrity_check ok/);
  const again = await backup([target], { WEFT_DATA_DIR: dataDir, WEFT_BACKUP_FORCE: '1' });
  assert.equal(again.code, 0, again.err);
  // The copy carries the keys: restored, `weft keys list` reads them.
  const restoreDir = dirs.make();
  mkdirSync(restoreDir, { recursive: true });
  copyFileSync(target, join(restoreDir, 'weft.sqlite'));
  const list = cli(restoreDir, 'list');
  assert.equal(list.code, 0, list.err);
  assert.match(list.out, /alice/);
  assert.deepEqual(readdirSync(dir), ['b.sqlite']);
});

test('on the ClickHouse engine it exits 2 with one line naming ClickHouse BACKUP', async () => {
  const r = await backup([join(dirs.make(), 'x.sqlite')], { WEFT_ENGINE: 'clickhouse' });
  assert.equal(r.code, 2, r.err);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  assert.match(r.err, /ClickHouse's own BACKUP/);
});
