import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidRequestError } from '../../api/errors.js';
import { valDigest } from '../json/digest.js';
import { applyTableUpdates } from './table-updates.js';

const d = (n: number) => valDigest({ n });

test('updates apply in order to a copy of the base list', () => {
  const base = [d(0), d(1)];
  const out = applyTableUpdates(base, [
    { append: { row: { n: 2 } } },
    { insert: { index: 0, row: { n: 9 } } },
    { pop: { index: 1 } },
    { append: { row: { n: 2 } } },
  ]);
  assert.deepEqual(out.rowDigests, [d(9), d(1), d(2), d(2)]);
  assert.deepEqual(out.updated, [d(2), d(9), d(0), d(2)]);
  assert.deepEqual(
    out.newRows.map((r) => r.digest),
    [d(2), d(9)],
    'each new row once',
  );
  assert.equal(out.newRows[0]!.val, '{"n": 2}');
  assert.deepEqual(base, [d(0), d(1)], 'the base list is not modified');
});

test('indexes outside the list are "Index out of range"', () => {
  const bad = [
    { pop: { index: 0 } },
    { insert: { index: 1, row: {} } },
    { pop: { index: -1 } },
    { insert: { index: -1, row: {} } },
  ];
  for (const u of bad) {
    assert.throws(
      () => applyTableUpdates([], [u]),
      (e) => e instanceof InvalidRequestError && e.message === 'Index out of range',
    );
  }
  assert.deepEqual(applyTableUpdates([], [{ insert: { index: 0, row: { n: 1 } } }]).rowDigests, [d(1)]);
});
