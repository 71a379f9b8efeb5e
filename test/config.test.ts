import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ConfigError, DEFAULTS, loadConfig, SETTINGS } from '../src/config.js';

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

test('one setting per option: every field of the config has one flag and one variable, none shared', () => {
  assert.deepEqual(SETTINGS.map((s) => s.key).sort(), Object.keys(DEFAULTS).sort());
  assert.equal(new Set(SETTINGS.map((s) => s.flag)).size, SETTINGS.length);
  assert.equal(new Set(SETTINGS.map((s) => s.env)).size, SETTINGS.length);
  for (const s of SETTINGS.filter((x) => !x.isSwitch)) {
    const value =
      s.key === 'port' ||
      s.key === 'bodyLimit' ||
      s.key === 'rateLimitPerMinute' ||
      s.key === 'signalsConcurrency' ||
      s.key === 'signalsBacklog' ||
      s.key === 'ingestQueueBytes' ||
      s.key === 'retentionIntervalMs' ||
      s.key === 'clickhouseCallCacheBytes'
        ? '7'
        : s.key === 'engine'
          ? 'clickhouse'
          : s.key === 'logFormat'
            ? 'pretty'
            : 'abc';
    const fromFlag = loadConfig([`--${s.flag}`, value], {});
    const fromEnv = loadConfig([], { [s.env]: value });
    assert.deepEqual(fromFlag[s.key], fromEnv[s.key], s.flag);
    assert.notDeepEqual(fromFlag[s.key], DEFAULTS[s.key], `${s.flag} changed nothing`);
  }
});

test('the ClickHouse call cache: 64 MiB unless set, 0 turns it off, anything but a non-negative integer is an error', () => {
  assert.equal(loadConfig([], {}).clickhouseCallCacheBytes, 64 * 1024 * 1024);
  assert.equal(loadConfig([], { WEFT_CLICKHOUSE_CALL_CACHE_BYTES: '0' }).clickhouseCallCacheBytes, 0);
  assert.equal(
    loadConfig(['--clickhouse-call-cache-bytes', '1048576'], { WEFT_CLICKHOUSE_CALL_CACHE_BYTES: '0' })
      .clickhouseCallCacheBytes,
    1048576,
  );
  assert.throws(
    () => loadConfig(['--clickhouse-call-cache-bytes', '64MB'], {}),
    /clickhouseCallCacheBytes must be a non-negative integer/,
  );
  assert.throws(() => loadConfig([], { WEFT_CLICKHOUSE_CALL_CACHE_BYTES: '-1' }), ConfigError);
});

test('a switch: the flag alone is true, its variable says true or false, a value on the flag is an error', () => {
  assert.equal(loadConfig(['--insecure-open'], {}).insecureOpen, true);
  assert.equal(loadConfig([], { WEFT_INSECURE_OPEN: 'true' }).insecureOpen, true);
  assert.equal(loadConfig([], { WEFT_INSECURE_OPEN: 'false' }).insecureOpen, false);
  assert.throws(() => loadConfig(['--insecure-open=false'], {}), /takes no value/);
  assert.throws(() => loadConfig(['stray'], {}), /unexpected argument stray/);
  assert.throws(() => loadConfig(['--nope'], {}), /unknown option --nope/);
});

test('allowed hosts: comma-separated names, lowercased, .domain entries, * alone; ports, URLs and spaces are errors', () => {
  assert.deepEqual(loadConfig([], {}).allowedHosts, []);
  assert.deepEqual(
    loadConfig([], { WEFT_ALLOWED_HOSTS: ' Weft.Example , .corp.example,,10.0.0.5,FD00::5' }).allowedHosts,
    ['weft.example', '.corp.example', '10.0.0.5', 'fd00::5'],
  );
  assert.deepEqual(loadConfig(['--allowed-hosts', '*'], { WEFT_ALLOWED_HOSTS: 'x' }).allowedHosts, ['*']);
  for (const bad of [
    'weft.example:8080',
    'http://weft.example',
    '*,weft.example',
    'a b',
    '-bad.example',
    'a..b',
    '[fd00::5]',
    '10.0.0.5:80',
  ]) {
    assert.throws(() => loadConfig([`--allowed-hosts=${bad}`], {}), /allowedHosts/, bad);
  }
});

test('outbound allowed hosts: comma-separated host or host:port, lowercased; URLs, paths and bad ports are errors', () => {
  assert.deepEqual(loadConfig([], {}).outboundAllowedHosts, []);
  assert.deepEqual(
    loadConfig([], { WEFT_OUTBOUND_ALLOWED_HOSTS: ' LocalHost:11434 , vllm.lan,,10.0.0.5:8000,[::1]:11434,FD00::5' })
      .outboundAllowedHosts,
    ['localhost:11434', 'vllm.lan', '10.0.0.5:8000', '[::1]:11434', 'fd00::5'],
  );
  const flag = loadConfig(['--outbound-allowed-hosts', 'a.example:1'], { WEFT_OUTBOUND_ALLOWED_HOSTS: 'b.example' });
  assert.deepEqual(flag.outboundAllowedHosts, ['a.example:1']);
  for (const bad of [
    'http://localhost:11434',
    'localhost:0',
    'localhost:70000',
    'localhost:',
    'a b',
    'a/b',
    '[x]:1',
    '*',
  ]) {
    assert.throws(
      () => loadConfig([`--outbound-allowed-hosts=${bad}`], {}),
      /outboundAllowedHosts must list host names or IP addresses/,
      bad,
    );
  }
  assert.ok(SETTINGS.some((s) => s.env === 'WEFT_OUTBOUND_ALLOWED_HOSTS' && s.flag === 'outbound-allowed-hosts'));
});
