import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEAF, OBJECT, SEP, VALUE, jsonLeaves, leafPath, type Leaves } from './json-leaves.js';

/** A document's leaves, readable: the scalars (keys joined by '/', ' = ' and the JSON), then the opaque paths. */
function entries(l: Leaves): string[] {
  assert.ok(l.leaves.startsWith(LEAF) && l.leaves.endsWith(LEAF), 'starts and ends with LEAF');
  const values = l.leaves
    .slice(1, -1)
    .split(LEAF)
    .filter((e) => e !== '')
    .map((e) => e.replaceAll(SEP, '/').replace(VALUE, ' = '));
  const opaque = l.opaque.map((p) =>
    p === ''
      ? '(root) opaque'
      : p.endsWith(OBJECT)
        ? `${p.slice(0, -1).replaceAll(SEP, '/')} object`
        : `${p.replaceAll(SEP, '/')} opaque`,
  );
  return [...values, ...opaque];
}
const leaves = (v: unknown) => entries(jsonLeaves(JSON.stringify(v)));

test('scalars keep their JSON text; objects are walked; arrays and long strings are opaque', () => {
  assert.deepEqual(
    leaves({
      model: 'gpt "4"',
      t: 0.7,
      big: 1e21,
      tiny: 1e-7,
      ok: true,
      none: null,
      arr: [1],
      o: { x: 'a\\b', y: {} },
      long: 'x'.repeat(300),
    }),
    [
      'model = "gpt \\"4\\""',
      't = 0.7',
      'big = 1e+21',
      'tiny = 1e-7',
      'ok = true',
      'none = null',
      'o/x = "a\\\\b"',
      'arr opaque',
      'o object',
      'o/y object',
      'long opaque',
    ],
  );
});

test('a string is a leaf while its JSON is at most 256 characters long', () => {
  assert.deepEqual(leaves({ a: 'x'.repeat(254), b: 'x'.repeat(255), c: '"'.repeat(127), d: '"'.repeat(128) }), [
    `a = "${'x'.repeat(254)}"`,
    `c = "${'\\"'.repeat(127)}"`,
    'b opaque',
    'd opaque',
  ]);
});

test('keys a path cannot name are left out with what is below them; a key with a dot stays', () => {
  assert.deepEqual(leaves({ '': 1, 0: 2, 123456789: 3, 1234567890: 4, 'a.b': { c: 5 }, 'ctl\u0001': 6 }), [
    '1234567890 = 4',
    'a.b/c = 5',
    'a.b object',
  ]);
  assert.equal(leafPath(['a.b', 'c']), true);
  for (const bad of [[], [''], ['0'], ['a', '12'], ['x\u0001'], ['\ud800']])
    assert.equal(leafPath(bad), false, JSON.stringify(bad));
});

test('a document too large for the budget is described less deeply, down to an opaque root', () => {
  const deep = { a: { b: { c: { d: 1, e: { f: 2 } } } } };
  assert.deepEqual(leaves(deep), ['a/b/c/d = 1', 'a object', 'a/b object', 'a/b/c object', 'a/b/c/e opaque']);
  const wide = { small: 1, o: Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i])) };
  assert.deepEqual(leaves(wide), ['small = 1', 'o opaque']);
  const huge = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]));
  assert.deepEqual(leaves(huge), ['(root) opaque']);
  assert.equal(leaves(Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, i]))).length, 64);
});

test('documents without keys have no entries; one ClickHouse cannot parse (a lone surrogate) is opaque', () => {
  for (const doc of [[1, 2], 'text', 3, null, {}])
    assert.deepEqual(jsonLeaves(JSON.stringify(doc)), { leaves: LEAF, opaque: [] });
  assert.deepEqual(leaves({ ok: 1, bad: 'x\ud800' }), ['(root) opaque']);
  assert.deepEqual(leaves({ fine: 'pair 😀' }), ['fine = "pair 😀"']);
  assert.deepEqual(entries(jsonLeaves('{not json')), ['(root) opaque']);
});
