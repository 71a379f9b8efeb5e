import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Hop, nextHop, redirectTarget } from './next-hop.js';

const post: Hop = {
  url: new URL('https://api.example.com/v1/chat/completions'),
  method: 'POST',
  headers: new Headers({
    authorization: 'Bearer sk-secret',
    'x-api-key': 'secret',
    'content-type': 'application/json',
    accept: 'application/json',
  }),
  body: Buffer.from('{}'),
};

test('redirectTarget: only 301/302/303/307/308 with a Location, resolved against the URL answered', () => {
  const from = new URL('https://api.example.com/v1/x');
  assert.equal(redirectTarget(307, '/v2/x', from)?.href, 'https://api.example.com/v2/x');
  assert.equal(redirectTarget(302, 'http://10.0.0.5/', from)?.href, 'http://10.0.0.5/');
  assert.equal(redirectTarget(200, '/v2/x', from), null);
  assert.equal(redirectTarget(304, '/v2/x', from), null);
  assert.equal(redirectTarget(301, undefined, from), null);
  assert.throws(() => redirectTarget(301, 'http://[bad', from), TypeError);
});

test('307 and 308 keep the method and body; 303, and 301/302 after a POST, become a GET without body', () => {
  for (const status of [307, 308]) {
    const next = nextHop(post, status, new URL('https://api.example.com/v2'));
    assert.deepEqual([next.method, next.body?.toString()], ['POST', '{}']);
  }
  for (const status of [301, 302, 303]) {
    const next = nextHop(post, status, new URL('https://api.example.com/v2'));
    assert.deepEqual([next.method, next.body, next.headers.get('content-type')], ['GET', null, null]);
  }
  assert.equal(nextHop({ ...post, method: 'PUT' }, 302, new URL('https://api.example.com/')).method, 'PUT');
});

test('headers that may carry a key follow a redirect on the same origin only', () => {
  const same = nextHop(post, 307, new URL('https://api.example.com/v2'));
  assert.equal(same.headers.get('authorization'), 'Bearer sk-secret');
  assert.equal(same.headers.get('x-api-key'), 'secret');
  for (const other of ['https://elsewhere.example/', 'http://api.example.com/', 'https://api.example.com:8443/']) {
    const next = nextHop(post, 307, new URL(other));
    assert.deepEqual([...next.headers.keys()], ['accept', 'content-type'], other);
  }
});
