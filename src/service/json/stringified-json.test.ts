// isStringifiedJson against its definition, JSON.stringify(JSON.parse(t)) === t, on generated
// values and on texts that differ from their stored form in each way JSON allows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isStringifiedJson, StringifiedJson } from './stringified-json.js';

/** The definition: valid JSON whose value JSON.stringify writes back as the same text. */
function stored(t: string): boolean {
  try {
    return JSON.stringify(JSON.parse(t)) === t;
  } catch {
    return false;
  }
}

function rng(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const STRINGS = [
  '',
  'a',
  'hello world',
  'é',
  '日本',
  '😀',
  '\u2028',
  'q"uote',
  'back\\slash',
  'tab\tnl\nret\r',
  '\u0000\u0001\u001f',
  '\b\f',
  '/',
  'weave:///e/p/object/x:1',
  '__proto__',
  '\ud800',
  'a\udc00b',
  '-',
  '0',
  '12',
  'x1',
];
const NUMBERS = [
  0,
  1,
  -1,
  42,
  1.5,
  -0.25,
  1e21,
  1e-7,
  123456789012345,
  1234567890123456,
  2 ** 53 + 2,
  0.1 + 0.2,
  5e-324,
  1.7976931348623157e308,
];

function value(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 4 : 7));
  if (k === 0) return STRINGS[Math.floor(r() * STRINGS.length)];
  if (k === 1) return NUMBERS[Math.floor(r() * NUMBERS.length)];
  if (k === 2) return [true, false, null][Math.floor(r() * 3)];
  if (k === 3) return Math.floor(r() * 1000);
  if (k === 4) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) o[STRINGS[Math.floor(r() * STRINGS.length)]!] = value(r, depth + 1);
  return o;
}

/** Ways a text can hold the same value in another form, or not be JSON at all. */
const MUTATIONS: ((t: string, r: () => number) => string)[] = [
  (t) => t.replace(/,/, ', '),
  (t) => t.replace(/:/, ': '),
  (t) => ` ${t}`,
  (t) => `${t}\n`,
  (t) => t.replace(/(\d)([,\]}])/, '$1.0$2'),
  (t) => t.replace(/(\d)([,\]}])/, '$1e0$2'),
  (t) => t.replace(/(\d)([,\]}])/, '$1E+1$2'),
  (t) => t.replace(/:0([,}])/, ':-0$1'),
  (t) => t.replace(/:(\d)/, ':0$1'),
  (t) => t.replace(/é/, '\\u00e9'),
  (t) => t.replace(/\\u0001/, '\\u0001'.toUpperCase()),
  (t) => t.replace(/\\n/, '\\u000a'),
  (t) => t.replace(/\//, '\\/'),
  (t) => t.replace(/a/, '\\u0061'),
  (t) => t.replace(/"hello world"/, '"hello\u0001world"'),
  (t) => t.replace(/"/, '\\"'),
  (t) => t.replace(/\{"([^"]*)":/, '{"$1":1,"$1":'),
  (t) => t.replace(/\{/, '{"7":1,'),
  (t) => t.replace(/\\ud800/, '\ud800'),
  (t) => t.replace(/😀/, '\\ud83d\\ude00'),
  (t) => t.replace(/true/, 'tru'),
  (t) => t.replace(/null/, 'NaN'),
  (t, r) => t.slice(0, Math.floor(r() * t.length)),
  (t) => t.replace(/\]/, ',]'),
  (t) => t.replace(/\}/, ',}'),
  (t) => `${t}${t}`,
  (t) => t.replace(/1/, '12345678901234567890'),
];

test('never says yes where JSON.stringify(JSON.parse(t)) !== t, on 20,000 generated texts and their variants', () => {
  const r = rng(7);
  let accepted = 0;
  let variants = 0;
  for (let i = 0; i < 20_000; i++) {
    const v = value(r, 0);
    const t = JSON.stringify(v);
    // Refused on purpose: keys of digits only, and lone surrogates (escaped).
    const refused = /[{,]"\d+":/.test(t) || /\\ud[89a-f]/.test(t);
    assert.equal(isStringifiedJson(t), !refused, `stored form of a value: ${t}`);
    if (!refused) accepted++;
    for (const m of MUTATIONS) {
      const u = m(t, r);
      if (u === t) continue;
      variants++;
      if (isStringifiedJson(u)) assert.ok(stored(u), `accepted a text not in stored form: ${JSON.stringify(u)}`);
      else
        assert.ok(
          !stored(u) || /[{,]"\d+":/.test(u) || /\\ud[89a-f]/.test(u),
          `refused a stored-form text: ${JSON.stringify(u)}`,
        );
    }
  }
  assert.ok(accepted > 12_000 && variants > 100_000, `${accepted} accepted, ${variants} variants`);
});

test('escapes: exactly those JSON.stringify writes', () => {
  for (let c = 0; c < 0x20; c++) {
    const t = JSON.stringify(String.fromCharCode(c));
    assert.equal(isStringifiedJson(`[${t}]`), true, t);
    assert.equal(isStringifiedJson(`[${t.toUpperCase()}]`), t === t.toUpperCase(), t.toUpperCase());
  }
  assert.equal(isStringifiedJson('["\\ud800"]'), false); // lone surrogates: left to the slow path
  assert.equal(isStringifiedJson('["\\"\\\\"]'), true);
  assert.equal(isStringifiedJson('["a\\'), false);
  assert.equal(isStringifiedJson('["\\u00'), false);
});

test('numbers: the shortest round-trip form only', () => {
  for (const n of ['0', '-1', '1.5', '1e+21', '1e-7', '123456789012345', '9007199254740994', '5e-324'])
    assert.equal(isStringifiedJson(`[${n}]`), true, n);
  for (const n of ['-0', '1.0', '1e21', '1E-7', '0.10', '01', '9007199254740993', '1e999', '.5', '5.', '+1', '-'])
    assert.equal(isStringifiedJson(`[${n}]`), false, n);
});

test('objects: repeated keys and array-index keys are refused; deep nesting is left to JSON.parse', () => {
  assert.equal(isStringifiedJson('{"a":1,"b":{"a":2}}'), true);
  assert.equal(isStringifiedJson('{"a":1,"a":2}'), false);
  const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
  assert.equal(isStringifiedJson(JSON.stringify(many)), true);
  assert.equal(isStringifiedJson(JSON.stringify(many).replace('}', ',"k39":0}')), false);
  assert.equal(isStringifiedJson('{"1":0}'), false);
  assert.equal(isStringifiedJson(`${'['.repeat(128)}${']'.repeat(128)}`), true);
  assert.equal(isStringifiedJson(`${'['.repeat(129)}${']'.repeat(129)}`), false);
  assert.equal(isStringifiedJson(''), false);
});

test('StringifiedJson.wrappedIn gives the stored form of the wrapping object', () => {
  const inner = StringifiedJson.of('[1,"x"]')!;
  assert.equal(inner.wrappedIn('input')!.text, JSON.stringify({ input: [1, 'x'] }));
  assert.equal(inner.wrappedIn('0'), null);
  assert.equal(StringifiedJson.of('[1, 2]'), null);
});
