import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trimOldest } from './trim-oldest.js';

test('trimOldest keeps the newest entries, counting a re-set key as new', () => {
  const m = new Map([
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ]);
  m.delete('a');
  m.set('a', 4);
  trimOldest(m, 2);
  assert.deepEqual([...m.keys()], ['c', 'a']);
  trimOldest(m, 5);
  assert.equal(m.size, 2);
});
