// Python `json.dumps` compatible serialization of JSON values (weave-api.md §3.2).
// Digests are SHA-256 over this text, so it must match Python byte for byte:
//   separators ", " and ": "; ensure_ascii (every char outside ' '..'~' is escaped, with
//   lowercase \uXXXX, astral chars as surrogate pairs); floats in Python repr; NaN and
//   Infinity spelled as Python does (allow_nan=True).
// Numbers: JS cannot tell 1.0 from 1. An integer-valued number below 1e21 prints as an
// integer, because that is how JSON.stringify wrote it and so how Python parsed it (an
// int); anything else is a Python float. Integers beyond 2^53 have already lost precision
// when JSON.parse read them: such values digest differently from Python.

export interface PythonJsonOptions {
  /** Sort object keys by code point, as Python's `sort_keys=True`. */
  readonly sortKeys?: boolean;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** A JSON string literal as Python writes it with ensure_ascii=True. */
export function pythonJsonString(s: string): string {
  let out = '"';
  let plainStart = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Printable ASCII other than `"` and `\` is copied verbatim.
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(plainStart, i);
    const ch = s[i]!;
    // UTF-16 code units map one to one onto Python's escapes, surrogate pairs included.
    out += SHORT_ESCAPES[ch] ?? `\\u${c.toString(16).padStart(4, '0')}`;
    plainStart = i + 1;
  }
  return `${out}${s.slice(plainStart)}"`;
}

/** Python's `repr(float)`: shortest round-trip digits; scientific when exp < -4 or >= 16. */
export function pythonFloatRepr(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  // toExponential() without an argument gives the shortest digits that round-trip.
  const [mantissa, expText] = v.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const expAbs = String(Math.abs(exp)).padStart(2, '0');
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${expAbs}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fracPart = digits.slice(exp + 1);
  return `${sign}${intPart}.${fracPart || '0'}`;
}

function pythonNumber(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return Object.is(v, -0) ? '0' : BigInt(v).toString();
  return pythonFloatRepr(v);
}

/** Python's str ordering: by code point (JS's default sort compares UTF-16 code units). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

function dump(v: unknown, opts: PythonJsonOptions): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return pythonNumber(v);
    case 'bigint':
      return v.toString();
    case 'string':
      return pythonJsonString(v);
    case 'object': {
      if (Array.isArray(v)) return `[${v.map((x) => dump(x, opts)).join(', ')}]`;
      const keys = Object.keys(v);
      if (opts.sortKeys) keys.sort(compareCodePoints);
      const obj = v as Record<string, unknown>;
      return `{${keys.map((k) => `${pythonJsonString(k)}: ${dump(obj[k], opts)}`).join(', ')}}`;
    }
    default:
      throw new TypeError(`not a JSON value: ${typeof v}`);
  }
}

/** `json.dumps(v)` (or `json.dumps(v, sort_keys=True)`) of a parsed JSON value. */
export function pythonJsonDumps(v: unknown, opts: PythonJsonOptions = {}): string {
  return dump(v, opts);
}
