import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressPolicy, parseAllowedHost } from './address-policy.js';
import { OutboundRefusedError } from './outbound-error.js';

test('entries: host or host:port; IPv6 bare or in brackets with a port; addresses in canonical form', () => {
  assert.deepEqual(parseAllowedHost('localhost'), { host: 'localhost', port: null, isAddress: false });
  assert.deepEqual(parseAllowedHost('localhost:11434'), { host: 'localhost', port: 11434, isAddress: false });
  assert.deepEqual(parseAllowedHost('10.0.0.5:8000'), { host: '10.0.0.5', port: 8000, isAddress: true });
  assert.deepEqual(parseAllowedHost('fd00::5'), { host: 'fd00::5', port: null, isAddress: true });
  assert.deepEqual(parseAllowedHost('[::1]:11434'), { host: '::1', port: 11434, isAddress: true });
  assert.deepEqual(parseAllowedHost('[fd00:ec2:0::254]'), { host: 'fd00:ec2::254', port: null, isAddress: true });
  assert.deepEqual(parseAllowedHost('[::ffff:7f00:1]:80'), { host: '127.0.0.1', port: 80, isAddress: true });
  for (const bad of ['http://x', 'x:0', 'x:65536', 'x:', 'x:8o', 'a b', 'a/b', '[x]:1', '[10.0.0.5]:1', '*', '.x']) {
    assert.throws(() => parseAllowedHost(bad), Error, bad);
  }
});

test('public addresses pass with nothing listed; every other kind is refused', () => {
  const p = addressPolicy([]);
  assert.equal(p.refusal({ host: 'api.openai.com', port: 443 }, '162.159.140.245'), null);
  for (const a of ['127.0.0.1', '::1', '10.0.0.5', '169.254.169.254', '0.0.0.0', 'fd00::1', '100.64.0.1']) {
    assert.ok(p.refusal({ host: 'api.example.com', port: 443 }, a) instanceof OutboundRefusedError, a);
  }
});

test('the refusal names the address, its kind and the setting with the entry that allows it', () => {
  const p = addressPolicy([]);
  assert.equal(
    p.refusal({ host: 'api.internal', port: 8080 }, '10.0.0.5')?.message,
    'refused: api.internal resolves to 10.0.0.5, a private address; allow it with WEFT_OUTBOUND_ALLOWED_HOSTS=api.internal:8080',
  );
  assert.equal(
    p.refusal({ host: '::1', port: 11434 }, '::1')?.message,
    'refused: ::1 is a loopback address; allow it with WEFT_OUTBOUND_ALLOWED_HOSTS=[::1]:11434',
  );
  const metadata = p.refusal({ host: 'metadata.google.internal', port: 80 }, '169.254.169.254');
  assert.equal(
    metadata?.message,
    'refused: metadata.google.internal resolves to 169.254.169.254, a cloud metadata address; only its address allows it: WEFT_OUTBOUND_ALLOWED_HOSTS=169.254.169.254:80',
  );
  assert.equal(metadata?.status, 403);
  assert.deepEqual(metadata?.extra, { setting: 'WEFT_OUTBOUND_ALLOWED_HOSTS' });
});

test('a listed name allows what it resolves to, on any port or on its port only', () => {
  const p = addressPolicy(['localhost:11434', 'vllm.lan']);
  assert.equal(p.refusal({ host: 'localhost', port: 11434 }, '127.0.0.1'), null);
  assert.equal(p.refusal({ host: 'localhost.', port: 11434 }, '::1'), null);
  assert.ok(p.refusal({ host: 'localhost', port: 11435 }, '127.0.0.1'));
  assert.equal(p.refusal({ host: 'vllm.lan', port: 8000 }, '192.168.1.30'), null);
  assert.equal(p.refusal({ host: 'VLLM.lan', port: 1 }, '192.168.1.30'), null);
  // Another name resolving to the same address is not listed.
  assert.ok(p.refusal({ host: 'other.lan', port: 8000 }, '192.168.1.30'));
  assert.ok(p.refusal({ host: '127.0.0.1', port: 11434 }, '127.0.0.1'));
});

test('a listed address allows that address whatever name led there; IPv4-mapped spellings are the same address', () => {
  const p = addressPolicy(['127.0.0.1:11434', '[fd00::5]:8000']);
  assert.equal(p.refusal({ host: '127.0.0.1', port: 11434 }, '127.0.0.1'), null);
  assert.equal(p.refusal({ host: 'localhost', port: 11434 }, '127.0.0.1'), null);
  assert.equal(p.refusal({ host: '::ffff:7f00:1', port: 11434 }, '::ffff:7f00:1'), null);
  assert.ok(p.refusal({ host: '127.0.0.2', port: 11434 }, '127.0.0.2'));
  assert.ok(p.refusal({ host: '127.0.0.1', port: 8080 }, '127.0.0.1'));
  assert.equal(p.refusal({ host: 'ula.lan', port: 8000 }, 'fd00:0::5'), null);
});

test('a metadata address is allowed only by listing the address itself, never by a name', () => {
  const byName = addressPolicy(['metadata.google.internal', 'evil.example']);
  assert.ok(byName.refusal({ host: 'metadata.google.internal', port: 80 }, '169.254.169.254'));
  assert.ok(byName.refusal({ host: 'evil.example', port: 80 }, 'fd00:ec2::254'));
  const byAddress = addressPolicy(['169.254.169.254:80']);
  assert.equal(byAddress.refusal({ host: '169.254.169.254', port: 80 }, '169.254.169.254'), null);
  assert.ok(byAddress.refusal({ host: '169.254.169.254', port: 8080 }, '169.254.169.254'));
});
