// Generators for fuzzing JSON request bodies: a seeded PRNG (failures reproduce from the
// printed seed), a serializer that can emit JSON no JS value serializes to (1e309, -0,
// duplicate keys, `__proto__` keys, 10,000-deep nesting), and mutations of a valid body.

/** mulberry32: small, fast, good enough for test-case generation. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
export const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** JSON text inserted verbatim by `toJson`. */
export class Raw {
  constructor(readonly text: string) {}
}
/** An object written from an entry list: allows duplicate keys and `__proto__` keys. */
export class Entries {
  constructor(readonly entries: readonly [string, unknown][]) {}
}

export function toJson(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Entries) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export const DEPTH = 10_000;
export const deepArray = (depth = DEPTH) => new Raw('['.repeat(depth) + ']'.repeat(depth));
export const deepObject = (depth = DEPTH) => new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
export const deepMixed = (depth = DEPTH) => new Raw(`${'[{"a":'.repeat(depth / 2)}null${'}]'.repeat(depth / 2)}`);

/** Strings that have broken parsers, encoders, collations and SQL layers before. */
export const UNICODE_STRINGS: readonly string[] = [
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  'a\udc00b\ud83d', // lone surrogates in the middle and at the end
  '\u0000', // NUL
  'nul\u0000inside',
  '\u202eRTL override\u202c',
  '\u200f\u05e9\u05dc\u05d5\u05dd', // RLM + Hebrew
  '\ufeffBOM',
  '\uffff\ufffe',
  'e\u0301\u0301\u0301', // stacked combining marks
  '\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67', // ZWJ family emoji
  '\u2028\u2029', // JS line separators
  '\u0085\u009f', // C1 controls
  '\u00a0\u3000', // unusual spaces
  '%00%27%22',
  '\\u0000',
  '',
];

/** Number tokens: the text forms JSON.stringify cannot produce, plus awkward doubles. */
export const NUMBER_TOKENS: readonly Raw[] = [
  '1e309',
  '-1e309',
  '-0',
  '-0.0',
  '18446744073709551616',
  '-9223372036854775809',
  '9223372036854775807',
  '9007199254740993',
  '1e-400',
  '0.1e1',
  '1E+2',
  '123456789012345678901234567890',
  '4.9e-324',
  '-1',
  '1.5',
].map((t) => new Raw(t));

export const PROTO_VALUES: readonly unknown[] = [
  new Entries([['__proto__', { polluted: 'yes' }]]),
  new Entries([['constructor', { prototype: { polluted: 'yes' } }]]),
  new Entries([
    ['__proto__', { polluted: 'yes' }],
    ['constructor', { prototype: { polluted: 'yes' } }],
  ]),
  { prototype: { polluted: 'yes' } },
];

/** Values of every JSON type and then some, for "wrong type at this field". */
export function wrongValues(r: Rand): unknown[] {
  return [
    null,
    true,
    false,
    0,
    -1,
    1.5,
    pick(r, NUMBER_TOKENS),
    '',
    'x',
    pick(r, UNICODE_STRINGS),
    [],
    {},
    [null],
    [1, 'a', {}],
    { a: 1 },
    { $expr: 1 },
    pick(r, PROTO_VALUES),
    'x'.repeat(int(r, 1000, 20_000)),
    Array.from({ length: int(r, 1000, 5000) }, (_, i) => i),
    pick(r, [deepArray(), deepObject(), deepMixed()]),
  ];
}

export type Path = (string | number)[];

/** Every path of a JSON value (objects and arrays included, root excluded). */
export function pathsOf(v: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([...prefix, i], ...pathsOf(x, [...prefix, i]));
    });
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) out.push([...prefix, k], ...pathsOf(x, [...prefix, k]));
  }
  return out;
}

/**
 * A copy of `root` (plain JSON) with `value` at `path`; further pairs are set when still
 * reachable in the copy. A pair whose path leads into a value placed before is skipped: the
 * values are placed as they are (often shared constants such as PROTO_VALUES), so writing
 * into one would change it for every later case (with seed 474310015 it became cyclic).
 */
export function setAt(root: unknown, path: Path, value: unknown, ...more: [Path, unknown][]): unknown {
  const copy = structuredClone(root) as any;
  const placed: Path[] = [];
  for (const [p, v] of [[path, value] as [Path, unknown], ...more]) {
    if (placed.some((q) => q.length < p.length && q.every((k, i) => k === p[i]))) continue;
    placed.push(p);
    let node = copy;
    for (const k of p.slice(0, -1)) node = node?.[k];
    if (node === null || typeof node !== 'object' || node instanceof Raw || node instanceof Entries) continue;
    node[p[p.length - 1]!] = v;
  }
  return copy;
}

/** An object-valued node of a body (the root included), for key mutations. */
function objectNodes(v: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(prefix);
  if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) out.push(...objectNodes(x, [...prefix, Array.isArray(v) ? Number(k) : k]));
  }
  return out;
}

/** Drops, duplicates (with a different value) or renames one key somewhere in the body. */
export function mutateKeys(r: Rand, body: unknown): unknown {
  const nodes = objectNodes(body).filter((p) => {
    let n: any = body;
    for (const k of p) n = n[k];
    return Object.keys(n).length > 0;
  });
  if (nodes.length === 0) return body;
  const at = pick(r, nodes);
  const rebuild = (n: any, depth: number): unknown => {
    if (depth === at.length) {
      const entries = Object.entries(n) as [string, unknown][];
      const i = Math.floor(r() * entries.length);
      const [k, v] = entries[i]!;
      const op = pick(r, ['drop', 'dup', 'dup-first', 'rename', 'case', 'proto'] as const);
      if (op === 'drop') return new Entries(entries.filter((_, j) => j !== i));
      if (op === 'dup') return new Entries([...entries, [k, pick(r, wrongValues(r).slice(0, 17))]]);
      if (op === 'dup-first') return new Entries([[k, pick(r, wrongValues(r).slice(0, 17))], ...entries]);
      if (op === 'rename') return new Entries(entries.map((e, j) => (j === i ? [`${k}_x`, v] : e)));
      if (op === 'case') return new Entries(entries.map((e, j) => (j === i ? [k.toUpperCase(), v] : e)));
      return new Entries([...entries, ['__proto__', { [k]: v }]]);
    }
    const key = at[depth]!;
    if (Array.isArray(n)) return n.map((x, j) => (j === key ? rebuild(x, depth + 1) : x));
    return Object.fromEntries(Object.entries(n).map(([k, x]) => [k, k === key ? rebuild(x, depth + 1) : x]));
  };
  return rebuild(body, 0);
}

/** Text-level damage: truncation, a flipped or inserted byte, dangling commas. */
export function damageText(r: Rand, text: string): string {
  const op = int(r, 0, 7);
  const at = int(r, 0, Math.max(0, text.length - 1));
  switch (op) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + pick(r, ['"', '{', '}', '[', ']', ',', ':', '\\', '\u0000', 'x']) + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1);
    case 3:
      return text.replace(/}$/, ',}');
    case 4:
      return text + pick(r, ['}', ']', ' garbage', '{}', '\u0000']);
    case 5:
      return text.replace(/"/g, "'");
    case 6:
      return (
        text.slice(0, at) +
        pick(r, ['NaN', 'Infinity', 'undefined', '0x10', '01', '.5', '+1', '"\\x41"', '"\\uZZZZ"', '/*c*/']) +
        text.slice(at)
      );
    default:
      return pick(r, [
        '',
        ' ',
        `\ufeff${text}`,
        '{',
        '[',
        'nul',
        'true',
        '"',
        '{"a":}',
        '{"a" 1}',
        '{,}',
        '[,]',
        '{"a":1,,"b":2}',
      ]);
  }
}

/** Replaces every string leaf of a body with one of `strings` (for SQL-injection sweeps). */
export function mapStrings(v: unknown, f: (s: string, path: Path) => string, path: Path = []): unknown {
  if (typeof v === 'string') return f(v, path);
  if (Array.isArray(v)) return v.map((x, i) => mapStrings(x, f, [...path, i]));
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f, [...path, k])]));
  }
  return v;
}

/** Races a promise against a timer: a hung request fails the test instead of the run. */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
