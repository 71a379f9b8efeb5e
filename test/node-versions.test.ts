// Which Node Weft runs on (scripts/lts-node.mjs), and the relaunch from an older one: `weft`
// started by a Node before 22 says in one line which Node it uses instead, runs there, and
// passes signals and exit codes through. The relaunch is exercised with an older Node of this
// machine when it has one (the build machines carry Node 20); the test command itself relaunches
// on such machines, so every CI run goes through it either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { delimiter, join } from 'node:path';
import { isSupported, ltsNode, NODE_CACHE } from '../scripts/lts-node.mjs';
import { CHILD_ENV, ROOT, tempDirs } from './helpers/weft-process.js';

const dirs = tempDirs('weft-node-');
test.after(() => dirs.removeAll());

test('supported: 22 and later; not 20 or 18', () => {
  for (const v of ['22.0.0', '22.23.3', 'v24.0.0', '24.21.0', '26.1.0']) assert.ok(isSupported(v), v);
  for (const v of ['18.20.0', '20.20.2', 'v21.7.3']) assert.ok(!isSupported(v), v);
  assert.ok(isSupported(), `the tests run on ${process.version}`);
  assert.equal(ltsNode(), process.execPath, 'on a supported Node, that Node is used and nothing is fetched');
});

/** A `node` on this machine older than Weft supports (outside .cache/node), or null. */
function olderNode(): string | null {
  const candidates = [
    ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'node')),
    '/usr/bin/node',
    '/usr/local/bin/node',
  ];
  for (const bin of candidates) {
    if (bin.startsWith(NODE_CACHE) || !existsSync(bin)) continue;
    const v = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (v && !isSupported(v)) return bin;
  }
  return null;
}

// The first relaunch in a checkout fetches Node 24 from the registry (tens of MB): run by the
// test command on Node 22 or 24, nothing has fetched it yet, and under load that took minutes.
test('from an older Node, weft relaunches on a current LTS: one line, the same answers, signals and exit codes passed through', {
  timeout: 600_000,
}, async (t) => {
  const old = olderNode();
  if (old === null) {
    // Nothing older on this machine: what users with Node 22 or 24 have. The check above holds.
    t.diagnostic('no Node older than 22 on this machine: the relaunch was not exercised here');
    assert.equal(ltsNode(), process.execPath);
    return;
  }
  const weft = join(ROOT, 'bin', 'weft.js');
  const version = spawnSync(old, [weft, '--version'], { encoding: 'utf8', env: CHILD_ENV });
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, /^weft \d+\.\d+\.\d+\n$/);
  assert.match(
    version.stderr,
    /^weft: Node\.js v\d+\.\d+\.\d+ is older than 22; using Node\.js v2[24]\.\d+\.\d+ \(npm package node-[a-z]+-[a-z0-9]+, in \.cache\/node\)\n$/,
  );
  const usage = spawnSync(old, [weft, '--no-such-flag'], { encoding: 'utf8', env: CHILD_ENV });
  assert.equal(usage.status, 2, 'a usage mistake exits 2 through the relaunch');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const child = spawn(old, [weft, '--port', '0', '--data-dir', dirs.make(), '--log-level', 'silent'], {
      env: CHILD_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    assert.equal((await fetch(`${url}/health`)).status, 200);
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    child.kill(signal);
    const [code, by] = await exited;
    assert.deepEqual([code, by], [0, null], `${signal}: the relaunched server exits 0 and so does weft`);
    await assert.rejects(fetch(`${url}/health`), 'the server itself stopped, not only the wrapper');
  }
});
