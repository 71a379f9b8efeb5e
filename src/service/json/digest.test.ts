// Vectors: SHA-256 values derived by hand from the published hash of "" and checked
// against CPython 3.11 `json.dumps(v, sort_keys=True)` + hashlib/base64 (weave/shared/digest.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytesDigest, canonicalJson, isContentHash, pythonJsonDumps, strDigest, valDigest } from './digest.js';
import { compareCodePoints, pythonFloatRepr, pythonJsonString } from './python-json.js';

test('bytesDigest: SHA-256 of "" in URL-safe base64, - -> X, _ -> Y, no padding', () => {
  // base64url of sha256("") is 47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU
  assert.equal(bytesDigest(new Uint8Array()), '47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU');
  assert.equal(strDigest(''), '47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU');
  assert.equal(strDigest('hello'), 'LPJNulXwow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ');
  assert.match(strDigest('anything at all'), /^[A-Za-z0-9]{43}$/);
});

test('pythonJsonDumps: separators ", " and ": ", keys sorted by code point when asked', () => {
  assert.equal(
    pythonJsonDumps({ b: 1, a: [1, 2.5, null, true, false] }, { sortKeys: true }),
    '{"a": [1, 2.5, null, true, false], "b": 1}',
  );
  assert.equal(pythonJsonDumps({ b: 1, a: 2 }), '{"b": 1, "a": 2}');
  assert.equal(pythonJsonDumps({ b: 1, a: 2 }, { sortKeys: true }), '{"a": 2, "b": 1}');
  assert.equal(
    pythonJsonDumps({ nested: { list: [{ k: 'v' }], empty: {}, earr: [] } }, { sortKeys: true }),
    '{"nested": {"earr": [], "empty": {}, "list": [{"k": "v"}]}}',
  );
  assert.equal(pythonJsonDumps(null), 'null');
  assert.equal(pythonJsonDumps('x'), '"x"');
});

test('pythonJsonString: ensure_ascii with lowercase escapes and surrogate pairs', () => {
  assert.equal(pythonJsonString('é'), '"\\u00e9"');
  assert.equal(pythonJsonString('😀'), '"\\ud83d\\ude00"');
  assert.equal(
    pythonJsonString('tab\tnew\nline "q" back\\ slash / del\x7f ctl\x01'),
    '"tab\\tnew\\nline \\"q\\" back\\\\ slash / del\\u007f ctl\\u0001"',
  );
  assert.equal(pythonJsonString('\b\f\r'), '"\\b\\f\\r"');
});

test('pythonFloatRepr matches Python repr()', () => {
  const cases: [number, string][] = [
    [1e-7, '1e-07'],
    [1e16, '1e+16'],
    [0.1, '0.1'],
    [1.5e-5, '1.5e-05'],
    [123.456, '123.456'],
    [1e21, '1e+21'],
    [100, '100.0'],
    [-0, '-0.0'],
    [1e15, '1000000000000000.0'],
    [12345678901234567, '1.2345678901234568e+16'],
    [0.00012, '0.00012'],
    [2.5e-300, '2.5e-300'],
    [1.2345e100, '1.2345e+100'],
    [NaN, 'NaN'],
    [-Infinity, '-Infinity'],
  ];
  for (const [v, want] of cases) assert.equal(pythonFloatRepr(v), want, `repr(${v})`);
});

test('numbers: integer-valued below 1e21 print as ints (as JSON.stringify sent them), others as Python floats', () => {
  const v = [
    1e-7, 0.1, 1.5e-5, 123.456, 1e21, 1.7976931348623157e308, 5e-324, -0.5, 0.0001, 1, 10000000000000000, -3, -0,
  ];
  assert.equal(
    pythonJsonDumps(v),
    '[1e-07, 0.1, 1.5e-05, 123.456, 1e+21, 1.7976931348623157e+308, 5e-324, -0.5, 0.0001, 1, 10000000000000000, -3, 0]',
  );
  assert.equal(valDigest(v.slice(0, 12).concat([0])), 'NNrMyUIRJ3QZwfWCdM7WxdIESkYnFuMsYNwE0lEEQ7M');
});

test('valDigest matches Python for objects, ops, strings and odd keys', () => {
  assert.equal(
    valDigest({ b: 1, a: [1, 2.5, null, true, false], c: { z: 'é', y: '😀' } }),
    'QQ5WhKnR8zWthYpRWrUrliVe1o3WQvIBtr43jfkqFGM',
  );
  const op = {
    _type: 'CustomWeaveType',
    weave_type: { type: 'Op' },
    files: { 'obj.py': '47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU' },
    load_op: 'NO_LOAD_OP',
  };
  assert.equal(
    canonicalJson(op),
    '{"_type": "CustomWeaveType", "files": {"obj.py": "47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU"}, "load_op": "NO_LOAD_OP", "weave_type": {"type": "Op"}}',
  );
  assert.equal(valDigest(op), '2c6QkCYYGmHnEvJXZo1UdFMhsT55w4gnjTCxXx33yV4');
  assert.equal(
    valDigest('tab\tnew\nline "q" back\\ slash / del\x7f ctl\x01'),
    'qY5GRnfJes6MS9YSlhvby5YE0pFNcoCexBjdCv9eMck',
  );
  // JS iterates "2" before "10"; Python sorts strings: "10" < "2"; U+FFFF sorts before U+10000.
  assert.equal(
    valDigest({ 10: 1, 2: 2, a: 3, '\uffff': 4, '\u{10000}': 5 }),
    'b16GK6ehy5UVJnYdx7XJsr7x7ww4X3dwXxh5EM39LiM',
  );
});

test('valDigest does not depend on the order a client wrote keys in', () => {
  assert.equal(valDigest({ a: 1, b: { c: 2, d: 3 } }), valDigest({ b: { d: 3, c: 2 }, a: 1 }));
});

test('compareCodePoints orders like Python str comparison', () => {
  assert.ok(compareCodePoints('\uffff', '\u{10000}') < 0);
  assert.ok(compareCodePoints('a', 'ab') < 0);
  assert.equal(compareCodePoints('x', 'x'), 0);
});

test('isContentHash recognises object and table digests only', () => {
  assert.ok(isContentHash('47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU'));
  assert.ok(isContentHash('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'));
  assert.ok(!isContentHash('latest'));
  assert.ok(!isContentHash('v3'));
  assert.ok(!isContentHash('production'));
});
