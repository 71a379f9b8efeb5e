// The weft command's conventions, run as users run it (from the sources): --help and
// --version on the server and on each command, exit 0 for them, 2 for a usage mistake with
// the reason on stderr, and every server option listed with its environment variable.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../src/config.js';
import { CHILD_ENV, ROOT, tempDirs } from './helpers/weft-process.js';

const dirs = tempDirs('weft-cli-conv-');
after(() => dirs.removeAll());

function runIn(
  env: Record<string, string>,
  entry: 'src/main.ts' | 'src/cli.ts',
  ...args: string[]
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...CHILD_ENV, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const run = (entry: 'src/main.ts' | 'src/cli.ts', ...args: string[]) => runIn({}, entry, ...args);

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test('weft --help lists every option with its environment variable and exits 0; -h too', () => {
  for (const flag of ['--help', '-h']) {
    const r = run('src/main.ts', flag);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^usage: weft \[options\]/);
    for (const s of SETTINGS) {
      const line = r.out
        .split('\n')
        .find((l) => l.trimStart().startsWith(`--${s.flag} `) || l.trim() === `--${s.flag}`);
      assert.ok(line, `--${s.flag} is not listed`);
      assert.ok(line.includes(s.env), `--${s.flag}'s line does not name ${s.env}`);
    }
    for (const command of ['keys', 'secrets', 'copy', 'backup'])
      assert.ok(r.out.includes(`weft ${command} --help`), command);
  }
});

test('weft --version prints the package version and exits 0; -v too', () => {
  for (const flag of ['--version', '-v']) {
    const r = run('src/main.ts', flag);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `weft ${VERSION}\n`);
  }
});

test('usage mistakes exit 2 with the reason and a pointer to --help, before anything starts', () => {
  const cases: [string[], RegExp][] = [
    [['--bogus'], /unknown option --bogus/],
    [['--port'], /option --port needs a value/],
    [['--insecure-open=true'], /option --insecure-open takes no value/],
    [['serve'], /unexpected argument serve/],
    [['--port', 'abc'], /port must be a non-negative integer/],
  ];
  for (const [args, reason] of cases) {
    const r = run('src/main.ts', ...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, reason);
    assert.match(r.err, /weft --help/);
    assert.equal(r.out, '', 'nothing on stdout');
  }
});

test('weft keys, secrets, copy and backup answer --help with their usage (exit 0) and mistakes with exit 2', () => {
  for (const args of [
    ['secrets', '--help'],
    ['secrets', 'set', '-h'],
    ['keys', '--help'],
    ['keys', 'create', '--help'],
    ['keys', '-h'],
    ['copy', '--help'],
    ['backup', '--help'],
  ]) {
    const r = run('src/cli.ts', ...args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    assert.match(r.out, new RegExp(`usage:[\\s\\S]*weft ${args[0]}`), args.join(' '));
  }
  const dataDir = join(dirs.make(), 'not-created');
  for (const args of [
    ['keys', '--bogus'],
    ['keys'],
    ['keys', 'frobnicate'],
    ['keys', 'create', '--user'],
    ['secrets'],
    ['secrets', 'list'],
    ['secrets', 'set', '--entity', 'acme'],
    ['secrets', 'delete', '--entity', 'acme', 'A', 'B'],
    ['secrets', 'rotate', '--entity', 'acme'],
  ]) {
    const r = run('src/cli.ts', ...args, '--data-dir', dataDir);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /^weft: /);
  }
  assert.ok(!existsSync(dataDir), 'a usage mistake created the data directory');
});

test('weft copy takes its flags as variables too (WEFT_COPY_FROM, WEFT_COPY_TO, WEFT_COPY_CHECKPOINT)', () => {
  const root = dirs.make();
  const [from, to] = [join(root, 'from'), join(root, 'to')];
  assert.equal(run('src/cli.ts', 'keys', 'list', '--data-dir', from).code, 0, 'a source database');
  assert.equal(run('src/cli.ts', 'copy').code, 2, 'no stores: usage');
  const r = runIn(
    { WEFT_COPY_FROM: `sqlite:${from}`, WEFT_COPY_TO: `sqlite:${to}`, WEFT_COPY_CHECKPOINT: join(root, 'ckpt.json') },
    'src/cli.ts',
    'copy',
  );
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /every count matches/);
  assert.ok(existsSync(join(to, 'weft.sqlite')), 'the target database was written');
});

test('bin/weft.js in a checkout that was never built says so (exit 1), not a module stack', () => {
  const root = dirs.make();
  mkdirSync(join(root, 'bin'));
  copyFileSync(join(ROOT, 'bin', 'weft.js'), join(root, 'bin', 'weft.js'));
  for (const args of [['--version'], ['keys', 'list']]) {
    const r = spawnSync(process.execPath, [join(root, 'bin', 'weft.js'), ...args], {
      encoding: 'utf8',
      env: CHILD_ENV,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stderr, 'weft: not built yet: run `npm run build` in the repository (npm install does it)\n');
  }
});
