// JSON read as Python reads it, and written as Python's canonical `json.dumps` writes it.
// JSON.parse turns `1.0` into 1 and a 19-digit nanosecond time into the nearest double, so a
// digest over Python's re-encoding of a body (the historical turns' wire_sha256) cannot be
// recomputed from what JSON.parse returns. parseExactJson() parses as JSON.parse does (the same
// values and objects, so schema validation runs on them unchanged) and remembers, per object or
// array holding it, the source text of each number that JSON.parse may not keep (a fraction, an
// exponent, an integer past 15 digits). pythonValue() then reads a parsed value as Python's
// json.loads would have: integers as bigint (every digit), other numbers as float (number).
import { InvalidRequestError } from '../../api/errors.js';
import { compareCodePoints, pythonFloatRepr } from './python-json.js';

/** Number texts JSON.parse keeps exactly as an integer: at most 15 digits, no fraction or exponent. */
const PLAIN_INTEGER = /^-?(0|[1-9]\d{0,14})$/;
const INTEGER = /^-?\d+$/;

/** Holder (object or array) -> key -> the number's source text, for the numbers PLAIN_INTEGER misses. */
const sources = new WeakMap<object, Map<string, string>>();

/** A parsed JSON value as Python holds it: int is bigint, float is number. */
export type PyValue = null | boolean | string | bigint | number | PyValue[] | { [key: string]: PyValue };

/**
 * JSON.parse that remembers number texts (needs JSON.parse's source access, Node 22+). Keys
 * `__proto__`, and `constructor` holding `prototype`, are refused as Fastify's own JSON parser
 * refuses them (prototype poisoning): a 400.
 */
export function parseExactJson(text: string): unknown {
  if (text.trim() === '') throw new InvalidRequestError('The request body is empty; a JSON object is expected');
  try {
    return JSON.parse(text, function (this: object, key: string, value: unknown, context?: { source?: string }) {
      if (
        key === '__proto__' ||
        (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)
      )
        throw new InvalidRequestError(`The request body holds a forbidden key (${key})`);
      const source = context?.source;
      if (typeof value === 'number' && source !== undefined && !PLAIN_INTEGER.test(source)) {
        let held = sources.get(this);
        if (held === undefined) sources.set(this, (held = new Map()));
        held.set(key, source);
      }
      return value;
    });
  } catch (err) {
    if (err instanceof SyntaxError) throw new InvalidRequestError(`The request body is not valid JSON: ${err.message}`);
    if (err instanceof RangeError) throw new InvalidRequestError('The request body is nested too deeply');
    throw err;
  }
}

/** The number at `holder[key]` as Python's json.loads reads its text: int (bigint) or float. */
function pythonNumber(value: number, holder: object | undefined, key: string): bigint | number {
  const source = holder === undefined ? undefined : sources.get(holder)?.get(key);
  if (source === undefined) return Number.isInteger(value) ? BigInt(value) : value;
  return INTEGER.test(source) ? BigInt(source) : value;
}

/**
 * A value parsed by parseExactJson (or built in code: then an integer-valued number is an int)
 * as Python holds it. Pass the object that holds `value` and its key when `value` is a number.
 */
export function pythonValue(value: unknown, holder?: object, key = ''): PyValue {
  if (typeof value === 'number') return pythonNumber(value, holder, key);
  if (Array.isArray(value)) return value.map((v, i) => pythonValue(v, value, String(i)));
  if (typeof value === 'object' && value !== null) {
    const out: { [key: string]: PyValue } = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, {
        value: pythonValue(v, value, k),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  if (value === undefined) return null;
  return value as string | boolean | null;
}

/** A value Python's canonical json.dumps refuses: a lone surrogate, a float that is not finite. */
export class NotCanonicalError extends Error {}

function canonicalString(s: string): string {
  // Python encodes its canonical text as UTF-8, which a lone surrogate cannot be.
  if (!s.isWellFormed()) throw new NotCanonicalError('a text holds a lone UTF-16 surrogate');
  // JSON.stringify escapes what Python's json.dumps(ensure_ascii=False) escapes: `"`, `\` and
  // the controls below U+0020 (\b \f \n \r \t by name, the rest as lower-case \u00XX).
  return JSON.stringify(s);
}

/**
 * Python's `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
 * allow_nan=False)`: keys by code point, floats in repr; throws NotCanonicalError where
 * Python raises.
 */
export function canonicalJson(v: PyValue): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'number':
      if (!Number.isFinite(v)) throw new NotCanonicalError('a number is not finite');
      return pythonFloatRepr(v);
    case 'string':
      return canonicalString(v);
    default:
      if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
      return canonicalObject(Object.entries(v).map(([k, x]) => [k, canonicalJson(x)]));
  }
}

/** An object of already canonical member texts, keys sorted by code point. */
export function canonicalObject(members: readonly (readonly [string, string])[]): string {
  const sorted = [...members].sort((a, b) => compareCodePoints(a[0], b[0]));
  return `{${sorted.map(([k, text]) => `${canonicalString(k)}:${text}`).join(',')}}`;
}
