import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupWrites } from './write-groups.js';

/** A write that records the items of each call and finishes on a later turn of the event loop. */
function recorder(fail: (items: readonly number[]) => boolean = () => false) {
  const calls: number[][] = [];
  let running = 0;
  let most = 0;
  const write = (items: readonly number[]) => {
    calls.push([...items]);
    most = Math.max(most, ++running);
    return new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        running--;
        if (fail(items)) reject(new Error(`refused ${items.join(',')}`));
        else resolve();
      }),
    );
  };
  return { calls, write, most: () => most };
}

test('batches that arrive while a write runs go out together in the next write', async () => {
  const r = recorder();
  const write = groupWrites(r.write, 100);
  await Promise.all([write([1]), write([2, 3]), write([4]), write([5])]);
  assert.deepEqual(r.calls, [[1], [2, 3, 4, 5]]);
  assert.equal(r.most(), 1);
});

test('a group takes at most maxItems items; a larger batch goes alone', async () => {
  const r = recorder();
  const write = groupWrites(r.write, 3);
  await Promise.all([write([1]), write([2, 3]), write([4]), write([5, 6, 7, 8]), write([9])]);
  assert.deepEqual(r.calls, [[1], [2, 3, 4], [5, 6, 7, 8], [9]]);
});

test('when a group fails, each batch is written alone and fails only for itself', async () => {
  const r = recorder((items) => items.includes(3));
  const write = groupWrites(r.write, 100);
  const results = await Promise.allSettled([write([1]), write([2]), write([3]), write([4])]);
  assert.deepEqual(
    results.map((x) => x.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((results[2] as PromiseRejectedResult).reason), /refused 3/);
  assert.deepEqual(r.calls, [[1], [2, 3, 4], [2], [3], [4]]);
});

test('inFlight writes run at once, the batches arriving meanwhile grouped behind them', async () => {
  const r = recorder();
  const write = groupWrites(r.write, 100, 2);
  await Promise.all([write([1]), write([2]), write([3]), write([4])]);
  assert.deepEqual(r.calls, [[1], [2], [3, 4]]);
  assert.equal(r.most(), 2);
});
