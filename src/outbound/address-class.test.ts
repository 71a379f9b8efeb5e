import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyAddress, METADATA_ADDRESSES } from './address-class.js';

const kinds = (addresses: string[]) => Object.fromEntries(addresses.map((a) => [a, classifyAddress(a).kind]));

test('public IPv4 and global unicast IPv6 are public', () => {
  assert.deepEqual(kinds(['8.8.8.8', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001:80b::200e']), {
    '8.8.8.8': 'public',
    '1.1.1.1': 'public',
    '2606:4700::1111': 'public',
    '2a00:1450:4001:80b::200e': 'public',
  });
});

test('private, loopback, link-local, unique-local, CGNAT, multicast, unspecified, broadcast and reserved ranges', () => {
  assert.deepEqual(
    kinds([
      '10.0.0.5',
      '172.16.3.4',
      '192.168.1.20',
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '169.254.1.1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '100.64.0.1',
      '224.0.0.1',
      'ff02::1',
      '0.0.0.0',
      '::',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '2001:db8::1',
    ]),
    {
      '10.0.0.5': 'private',
      '172.16.3.4': 'private',
      '192.168.1.20': 'private',
      '127.0.0.1': 'loopback',
      '127.8.9.10': 'loopback',
      '::1': 'loopback',
      '169.254.1.1': 'linkLocal',
      'fe80::1': 'linkLocal',
      'fc00::1': 'uniqueLocal',
      'fd12:3456::1': 'uniqueLocal',
      '100.64.0.1': 'carrierGradeNat',
      '224.0.0.1': 'multicast',
      'ff02::1': 'multicast',
      '0.0.0.0': 'unspecified',
      '::': 'unspecified',
      '255.255.255.255': 'broadcast',
      '240.0.0.1': 'reserved',
      '192.0.2.1': 'reserved',
      '198.18.0.1': 'reserved',
      '2001:db8::1': 'reserved',
    },
  );
});

test('IPv4-mapped IPv6 is the IPv4 address it reaches; NAT64 is judged by the IPv4 address it embeds', () => {
  assert.deepEqual(classifyAddress('::ffff:127.0.0.1'), { address: '127.0.0.1', kind: 'loopback' });
  assert.deepEqual(classifyAddress('::ffff:7f00:1'), { address: '127.0.0.1', kind: 'loopback' });
  assert.deepEqual(classifyAddress('::ffff:10.0.0.5'), { address: '10.0.0.5', kind: 'private' });
  assert.deepEqual(classifyAddress('::ffff:169.254.169.254'), { address: '169.254.169.254', kind: 'metadata' });
  assert.equal(classifyAddress('64:ff9b::7f00:1').kind, 'loopback');
  assert.equal(classifyAddress('64:ff9b::808:808').kind, 'public');
  // The deprecated IPv4-compatible form, and 6to4 and Teredo tunnels, reach nothing public Weft needs.
  assert.deepEqual(kinds(['::7f00:1', '2002:7f00:1::1', '2001:0:4136:e378::1']), {
    '::7f00:1': 'reserved',
    '2002:7f00:1::1': 'reserved',
    '2001:0:4136:e378::1': 'reserved',
  });
});

test('cloud metadata addresses are their own kind, in any spelling, Azure WireServer in public space included', () => {
  for (const a of METADATA_ADDRESSES) assert.equal(classifyAddress(a).kind, 'metadata', a);
  assert.deepEqual(classifyAddress('fd00:ec2:0:0:0:0:0:254'), { address: 'fd00:ec2::254', kind: 'metadata' });
  assert.equal(classifyAddress('168.63.129.16').kind, 'metadata');
  assert.equal(classifyAddress('169.254.169.253').kind, 'linkLocal');
});

test('anything but an IP address is reserved (refused), never public', () => {
  for (const text of ['localhost', '', '127.1', '0x7f000001', '2130706433', 'fe80::1%']) {
    assert.equal(classifyAddress(text).kind, 'reserved', text);
  }
});
