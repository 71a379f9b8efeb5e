// The leaves of a call's inputs, stored beside the JSON text so that a filter or a sort on a
// short path reads a few bytes a row instead of parsing the document (measured on chdb, 1M
// calls, query (b) of the benchmark: see docs/performance.md). Two columns:
//  - inputs_leaves: the scalar leaves, each as LEAF + path + VALUE + the leaf's JSON text (a
//    string of up to MAX_VALUE characters of JSON, a number, a boolean or null), then a final LEAF;
//  - inputs_opaque: the paths the leaves do not describe: every object (path + OBJECT; its
//    value is JSON text, which only the document gives, while its members have entries of
//    their own), and every array, longer string, object below MAX_DEPTH or beyond the entry
//    budget (path alone; '' is the root: nothing of the document is described). A bloom
//    filter index on it makes "does any row have this path opaque" cheap.
// A path is its keys joined by SEP. Keys a field path cannot name (empty, 1-9 digits, which the
// JSONPath reads as an array index) or that the encoding cannot hold (control characters, lone
// surrogates) are left out with what lies below them. Rows written before the columns existed
// read as ('', ['']): opaque at the root.
//
// The leaves answer a path exactly when no row of the project has the path or one of its
// ancestors opaque, nor the path as an object: the store asks that first (clickhouse/calls/call-leaves.ts)
// and prints the path from the document otherwise. The values are the document's own JSON text
// (stored text is exactly what JSON.stringify writes), read with the same JSON_VALUE as the
// document path, so both answer alike.
// What a key must avoid is what chJsonPath reads otherwise: one set of patterns for both.
import { ARRAY_INDEX_PART, CONTROL_CHARS, LONE_SURROGATE, type ChField, type ChParams } from '../engine/dialect.js';

export const LEAF = '\u0001';
export const VALUE = '\u0002';
export const OBJECT = '\u0004';
export const SEP = '\u0005';

/** Columns with leaves beside them (`<column>_leaves`, `<column>_opaque`): start columns, alike in every row of a call. */
export const LEAF_COLUMNS: ReadonlySet<string> = new Set(['inputs']);

const MAX_DEPTH = 4;
const MAX_VALUE = 256;
const MAX_ENTRIES = 64;
const LONE_ESCAPE = /\\ud[89a-f][0-9a-f]{2}/;

/** Keys of the usual kind, addressable at a glance (not empty, not all digits, nothing unusual). */
const PLAIN_KEY = /^[A-Za-z_$][\w$ .-]*$/;

/** Whether a key can be named by a field path and held by the encoding. */
export const addressableKey = (key: string): boolean =>
  PLAIN_KEY.test(key) ||
  (key !== '' && !ARRAY_INDEX_PART.test(key) && !CONTROL_CHARS.test(key) && !LONE_SURROGATE.test(key));

/** Whether the leaves can answer this path (else only the document can). */
export const leafPath = (path: readonly string[]): boolean => path.length > 0 && path.every(addressableKey);

export interface Leaves {
  readonly leaves: string;
  readonly opaque: string[];
}

/** Appends the members of an object; false once there are more than MAX_ENTRIES. */
function walk(
  value: Record<string, unknown>,
  prefix: string,
  depth: number,
  maxDepth: number,
  out: { opaque: string[]; entries: number; text: string },
): boolean {
  for (const key of Object.keys(value)) {
    if (++out.entries > MAX_ENTRIES) return false;
    if (!addressableKey(key)) continue;
    const path = prefix === '' ? key : prefix + SEP + key;
    const v = value[key];
    if (v !== null && typeof v === 'object') {
      if (Array.isArray(v) || depth >= maxDepth) out.opaque.push(path);
      else {
        out.opaque.push(path + OBJECT);
        if (!walk(v as Record<string, unknown>, path, depth + 1, maxDepth, out)) return false;
      }
      continue;
    }
    // A string's JSON is at least 2 longer than the string: a long one is opaque unwritten.
    const json = typeof v === 'string' && v.length > MAX_VALUE - 2 ? null : JSON.stringify(v);
    if (json === null || json.length > MAX_VALUE) out.opaque.push(path);
    else out.text += LEAF + path + VALUE + json;
  }
  return true;
}

const OPAQUE_ROOT: Leaves = { leaves: LEAF, opaque: [''] };

/**
 * The leaves of a JSON text (JSON.stringify's). Up to MAX_ENTRIES members in all: a document
 * with more is described less deeply (its deepest objects opaque), down to its top level,
 * and when even that has too many, not at all (opaque at the root).
 */
export function jsonLeaves(text: string): Leaves {
  // ClickHouse parses no document holding a lone surrogate (JSON.stringify writes one as an
  // escape, the only \ud8xx-\udfff escapes it writes): every path of it reads as missing there.
  if (text.includes('\\ud') && LONE_ESCAPE.test(text)) return OPAQUE_ROOT;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return OPAQUE_ROOT; // never stored (the text is JSON.stringify's)
  }
  // A scalar or an array has no keys: every path a field names is missing.
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return { leaves: LEAF, opaque: [] };
  for (let depth = MAX_DEPTH; depth >= 1; depth--) {
    const out = { opaque: [] as string[], entries: 0, text: '' };
    if (walk(doc as Record<string, unknown>, '', 1, depth, out)) return { leaves: out.text + LEAF, opaque: out.opaque };
  }
  return OPAQUE_ROOT;
}

/** Escapes what a regular expression (RE2) reads as syntax; a key holds no control character. */
const literal = (key: string) => key.replace(/[\\^$.|?*+()[\]{}-]/g, '\\$&');

/** A path as SQL: its keys (parameters) joined by SEP, each passed through `each`. */
function pathSql(path: readonly string[], params: ChParams, each: (key: string) => string = (k) => k): string {
  const keys = path.map(each);
  return keys.length === 1
    ? params.add(keys[0], 'String')
    : `arrayStringConcat(${params.add(keys, 'Array(String)')}, char(5))`;
}

/**
 * SQL that is 1 when a row's leaves cannot answer `path` (see the file comment): the root,
 * the path or an ancestor is opaque, or the path is an object. A bloom filter index can
 * answer it for whole granules.
 */
export function leavesUnusable(opaqueColumn: string, path: readonly string[], params: ChParams): string {
  const needles = ["''"];
  for (let i = 1; i <= path.length; i++) needles.push(pathSql(path.slice(0, i), params));
  needles.push(`concat(${pathSql(path, params)}, char(4))`);
  return `hasAny(${opaqueColumn}, [${needles.join(', ')}])`;
}

/** The columns of a table's leaves. */
export interface LeafColumns {
  readonly leaves: string;
  readonly opaque: string;
}

/**
 * A path read from the leaves, with the document path's semantics (chJsonField): the value's
 * JSON text goes through the same JSON_VALUE; missing or JSON null -> '' and not `exists`.
 * `text`, the byte search's column, is the leaves, which hold every short string as JSON text.
 * Exact only over rows whose leaves answer the path (the store makes sure of that around the
 * statement: clickhouse/calls/call-leaves.ts).
 */
export function leafField(c: LeafColumns, path: readonly string[], params: ChParams): ChField {
  const pattern = `concat(char(1), ${pathSql(path, params, literal)}, char(2), '([^', char(1), ']*)')`;
  const raw = `extract(${c.leaves}, ${pattern})`;
  const exists = `(${raw} NOT IN ('', 'null'))`;
  return {
    sql: `if(${exists}, JSON_VALUE(concat('[', ${raw}, ']'), '$[0]'), '')`,
    type: 'String',
    notNull: true,
    exists,
    text: c.leaves,
  };
}
