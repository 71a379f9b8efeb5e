// Open mode on a real server process: its startup line names the Host names answered, a
// foreign Host is refused on the socket, WEFT_ALLOWED_HOSTS=* turns the check off and says so,
// and a malformed list is a usage error. SQLite only: the engine plays no part here (the
// HTTP side runs on every engine: open-mode.test.ts).
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { serve, tempDirs } from './helpers/weft-process.js';

describe('the server process', () => {
  const dirs = tempDirs('weft-open-');
  after(() => dirs.removeAll());

  /** GET path on a real socket with the given Host header (fetch cannot set one). */
  const getWithHost = (port: number, path: string, host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => (body += d))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject).end();
    });

  test('the startup line names the names answered; a foreign Host is refused on the socket; * turns the check off and says so', async () => {
    const s = await serve(['--data-dir', dirs.make(), '--allowed-hosts', 'weft.example,.corp.example']);
    try {
      assert.ok(s.port, s.stderr);
      assert.match(
        s.stdout!,
        /open mode, no API keys: answering Host localhost, 127\.0\.0\.1, \[::1\], weft\.example, \.corp\.example/,
      );
      assert.equal((await getWithHost(s.port, '/health', 'evil.example')).status, 403);
      assert.equal((await getWithHost(s.port, '/health', 'a.corp.example:80')).status, 200);
      assert.equal((await getWithHost(s.port, '/health', `localhost:${s.port}`)).status, 200);
    } finally {
      s.stop();
      await s.exited;
    }
    const any = await serve(['--data-dir', dirs.make(), '--allowed-hosts', '*']);
    try {
      assert.match(
        any.stdout!,
        /any Host name \(WEFT_ALLOWED_HOSTS=\*\): every web page this machine opens can reach it/,
      );
      assert.equal((await getWithHost(any.port!, '/health', 'evil.example')).status, 200);
    } finally {
      any.stop();
      await any.exited;
    }
  });

  test('a malformed WEFT_ALLOWED_HOSTS is a usage error (exit 2) naming the setting', async () => {
    const s = await serve(['--data-dir', dirs.make(), '--allowed-hosts', 'weft.example:8080']);
    assert.equal(s.code, 2, s.stderr);
    assert.match(s.stderr, /allowedHosts must list host names or IP addresses without ports/);
  });
});
