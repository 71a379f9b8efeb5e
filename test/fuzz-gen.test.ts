// The fuzz generators themselves: a case built from shared values never changes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROTO_VALUES, setAt, toJson } from './helpers/fuzz-gen.js';

test('setAt never writes into a value it placed (shared constants stay as they were)', () => {
  const shared = { prototype: { polluted: 'yes' } };
  const before = JSON.stringify(shared);
  const out = setAt({ digests: ['a'] }, ['digests'], shared, [['digests', 0], shared]) as { digests: unknown };
  assert.equal(JSON.stringify(shared), before);
  assert.equal(out.digests, shared);
  // Pairs elsewhere are still set; the root is copied, not changed.
  const root = { a: 1, b: { c: 2 } };
  assert.deepEqual(setAt(root, ['a'], 'x', [['b', 'c'], 'y']), { a: 'x', b: { c: 'y' } });
  assert.deepEqual(root, { a: 1, b: { c: 2 } });
  for (const pv of PROTO_VALUES) assert.doesNotThrow(() => toJson(pv));
});
