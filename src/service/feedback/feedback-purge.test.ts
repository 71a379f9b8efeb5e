import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PURGE_BY_ID_ONLY, purgeIdsFromExpr } from './feedback-purge.js';

const eq = (id: unknown) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] });

test('one $eq on id, or an $or of them, names the ids', () => {
  assert.deepEqual(purgeIdsFromExpr(eq('a')), ['a']);
  assert.deepEqual(purgeIdsFromExpr({ $or: [eq('a'), eq('b'), eq('a')] }), ['a', 'b']);
});

test('every other shape is refused', () => {
  const bad: Record<string, unknown>[] = [
    {},
    { $in: [{ $getField: 'id' }, [{ $literal: 'a' }]] },
    eq(1),
    eq(null),
    { $eq: [{ $getField: 'weave_ref' }, { $literal: 'a' }] },
    { $eq: [{ $literal: 'a' }, { $getField: 'id' }] },
    { $eq: [{ $getField: 'id' }] },
    { $or: [] },
    { $or: [eq('a'), { $gt: [{ $getField: 'id' }, { $literal: 'a' }] }] },
    { $and: [eq('a')] },
    { ...eq('a'), $or: [eq('b')] },
    { $eq: [{ $getField: 'id', x: 1 }, { $literal: 'a' }] },
    { $or: eq('a') },
  ];
  for (const q of bad)
    assert.throws(
      () => purgeIdsFromExpr(q),
      (e: Error) => e.message === PURGE_BY_ID_ONLY,
      JSON.stringify(q),
    );
});
