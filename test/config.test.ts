import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ConfigError, DEFAULTS, loadConfig } from '../src/config.js';

test('defaults: 127.0.0.1:6345, ./weft-data, a 32 MiB body limit', () => {
  const c = loadConfig([], {});
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, 6345);
  assert.equal(c.dataDir, resolve('./weft-data'));
  assert.equal(c.bodyLimit, 32 * 1024 * 1024);
  assert.equal(c.localUserId, DEFAULTS.localUserId);
});

test('environment variables, then flags (which win)', () => {
  const env = { PORT: '7000', HOST: '0.0.0.0', WEFT_DATA_DIR: '/tmp/x', WEFT_BODY_LIMIT: '1000' };
  const c = loadConfig([], env);
  assert.deepEqual([c.port, c.host, c.dataDir, c.bodyLimit], [7000, '0.0.0.0', '/tmp/x', 1000]);
  const f = loadConfig(['--port', '7001', '--data-dir=/tmp/y', '--host', '::1'], env);
  assert.deepEqual([f.port, f.host, f.dataDir], [7001, '::1', '/tmp/y']);
});

test('bad values and unknown flags are errors', () => {
  assert.throws(() => loadConfig(['--port', 'abc'], {}), ConfigError);
  assert.throws(() => loadConfig(['--port', '70000'], {}), ConfigError);
  assert.throws(() => loadConfig(['--nope', '1'], {}), ConfigError);
  assert.throws(() => loadConfig(['--port'], {}), ConfigError);
  assert.throws(() => loadConfig([], { WEFT_BODY_LIMIT: '-5' }), ConfigError);
});

test('log format and metrics token: env and flags, json by default, anything else an error', () => {
  const d = loadConfig([], {});
  assert.deepEqual([d.logFormat, d.metricsToken], ['json', null]);
  const e = loadConfig([], { WEFT_LOG_FORMAT: 'pretty', WEFT_METRICS_TOKEN: 's3cret' });
  assert.deepEqual([e.logFormat, e.metricsToken], ['pretty', 's3cret']);
  const f = loadConfig(['--log-format', 'json', '--metrics-token=other'], { WEFT_LOG_FORMAT: 'pretty' });
  assert.deepEqual([f.logFormat, f.metricsToken], ['json', 'other']);
  assert.throws(() => loadConfig(['--log-format', 'text'], {}), ConfigError);
});
