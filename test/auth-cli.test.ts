// `weft keys` (create prints the key once, list never shows it, revoke works) and the
// startup rule: no keys on a non-loopback address refuses to start unless --insecure-open.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopback } from '../src/http/auth-mode.js';
import { cli, serve, tempDirs } from './helpers/weft-process.js';

const dirs = tempDirs('weft-auth-cli-');
after(() => dirs.removeAll());
const tmp = dirs.make;

test('keys create prints the key once; list never shows it; revoke marks it revoked', () => {
  const dir = tmp();
  const c = cli(dir, 'create', '--user', 'alice', '--entity', 'acme', '--role', 'writer', '--project', 'p1');
  assert.equal(c.code, 0, c.err);
  const key = c.out.split('\n').find((l) => l.startsWith('weft_'))!;
  assert.match(key, /^weft_[A-Za-z0-9_-]{43}$/);
  const id = /created key (key_[0-9a-f]+)/.exec(c.out)![1]!;
  const list = cli(dir, 'list');
  assert.equal(list.code, 0, list.err);
  assert.ok(list.out.includes(id) && list.out.includes('alice') && list.out.includes('writer:acme/p1'));
  assert.ok(!list.out.includes(key), 'list shows the key');
  const json = JSON.parse(cli(dir, 'list', '--json').out);
  assert.equal(json[0].revoked_at, null);
  assert.equal(json[0].key, undefined);
  const rev = cli(dir, 'revoke', id);
  assert.equal(rev.code, 0, rev.err);
  assert.equal(typeof JSON.parse(cli(dir, 'list', '--json').out)[0].revoked_at, 'string');
  assert.equal(cli(dir, 'revoke', id).code, 1);
});

test('keys create refuses a bad role and missing options (exit 2 for usage)', () => {
  const dir = tmp();
  assert.equal(cli(dir, 'create', '--user', 'a', '--entity', 'e', '--role', 'owner').code, 1);
  assert.equal(cli(dir, 'create', '--user', 'a').code, 2);
  assert.equal(cli(dir, 'frobnicate').code, 2);
});

test('loopback addresses', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
    assert.ok(isLoopback(h), h);
  for (const h of ['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1']) assert.ok(!isLoopback(h), h);
});

test('without keys, 0.0.0.0 is refused (exit 2) unless --insecure-open', async () => {
  const dir = tmp();
  const refused = await serve(['--host', '0.0.0.0', '--data-dir', dir]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /refusing to listen on 0\.0\.0\.0 without API keys/);
  assert.match(refused.stderr, /--insecure-open/);
  const open = await serve(['--host', '0.0.0.0', '--data-dir', dir, '--insecure-open']);
  try {
    assert.ok(open.port, open.stderr);
    assert.match(
      open.stdout!,
      /open mode, no API keys: answering Host localhost, 127\.0\.0\.1, \[::1\] \(other machines: list the name or address they use in WEFT_ALLOWED_HOSTS\)/,
    );
    const r = await fetch(`http://127.0.0.1:${open.port}/calls/query_stats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"project_id":"a/b"}',
    });
    assert.equal(r.status, 200);
  } finally {
    open.stop();
  }
});

test('with a key, 0.0.0.0 starts and needs the key', async () => {
  const dir = tmp();
  const key = cli(dir, 'create', '--user', 'root', '--entity', 'a', '--role', 'admin')
    .out.split('\n')
    .find((l) => l.startsWith('weft_'))!;
  const s = await serve(['--host', '0.0.0.0', '--data-dir', dir]);
  try {
    assert.ok(s.port, s.stderr);
    assert.match(s.stdout!, /\(data: .*; API keys required\)/);
    const post = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${s.port}/calls/query_stats`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"project_id":"a/b"}',
      });
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}` })).status, 200);
  } finally {
    s.stop();
  }
});

test('a key created with the CLI while the server runs open switches it to keyed at once', async () => {
  const dir = tmp();
  const s = await serve(['--data-dir', dir]);
  try {
    assert.ok(s.port, s.stderr);
    const url = `http://127.0.0.1:${s.port}/calls/query_stats`;
    const ask = (headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ project_id: 'acme/p' }),
      });
    assert.equal((await ask()).status, 200, 'open before any key');
    const created = cli(dir, 'create', '--user', 'ops', '--entity', 'acme', '--role', 'reader');
    assert.equal(created.code, 0, created.err);
    const key = /weft_[A-Za-z0-9_-]+/.exec(created.out)?.[0];
    assert.ok(key, created.out);
    assert.equal((await ask()).status, 401, 'keyed right after the CLI committed');
    assert.equal((await ask({ authorization: `Bearer ${key}` })).status, 200);
  } finally {
    s.stop();
  }
});
