// Migration 9: calls are found by keys of their ids instead of by the id strings.
//
// Why: OpenTelemetry span and trace ids are random, so each span's entries in the id, trace
// and parent indexes land on pages no other span of the commit touches, and every such page
// is written whole to the WAL at commit. Entries of (project_id, id) text were ~50 bytes, of
// the trace and parent indexes ~90; a 16-character key packs 2-4x more entries a page, so a
// commit of random ids dirties fewer pages (measured: OTLP wrote 1.71 WAL pages a span, SDK
// calls 0.60; with these keys 1.29 and 0.56).
//
// The key of an id is its first 16 hex digits, dashes left out: for a UUIDv7 (the SDKs' call
// and trace ids) that is the millisecond timestamp and 12 random bits, so the SDK's keys keep
// time order and its inserts stay at the end of each index; an OpenTelemetry span id is its
// own key. An id that does not start with 16 hex digits keys as itself. Keys are not unique:
// every lookup compares the full id (and project) on the row, and the writer, the only one
// that inserts, looks a call up before inserting it instead of relying on a unique index.
//
// The keys are VIRTUAL generated columns: adding them rewrites no row, and SQLite computes
// them with the same expression on write and in every lookup (callKeyOf), so the two cannot
// disagree. Lookups say `+calls.project_id`: the unary plus keeps the planner off the
// project-leading indexes, which on a database without statistics it may otherwise prefer.
// Migration 8 had 8-byte keys (sqlite/calls/call-keys-v8.ts), 5% more OTLP spans/s, but through
// unhex(), which older sqlite3 tools lack.
import type { Expr } from '../../../query/plan.js';
import type { SqlFragment } from '../engine/dialect.js';

const HEX16 = '[0-9a-fA-F]'.repeat(16);

/**
 * SQL of the key of `x` (a column or a `?`; a `?` is bound three times, see keyParams). Only
 * functions of every SQLite since generated columns (3.31) appear in it: a schema that named a
 * newer one (unhex, 3.41) could not be checked (PRAGMA integrity_check) or written by an older
 * sqlite3 tool, such as Debian 12's.
 */
export const callKeyOf = (x: string): string =>
  `CASE WHEN substr(replace(${x}, '-', ''), 1, 16) GLOB '${HEX16}' THEN substr(replace(${x}, '-', ''), 1, 16) ELSE ${x} END`;

/** The parameters of callKeyOf('?') for one id. */
export const keyParams = (id: string): [string, string, string] => [id, id, id];

const HEX16_JS = /^[0-9a-fA-F]{16}$/;
/** callKeyOf computed here, for the writer's own key tables (a test holds the two equal). */
export function callKey(id: string): string {
  const digits = id.replaceAll('-', '').slice(0, 16);
  return HEX16_JS.test(digits) ? digits : id;
}

/**
 * SQL true for the rows of `table` (calls) whose id key is one of `keys` (SQL expressions):
 * the id keys live in the key tables of migration 10 (sqlite/calls/call-ids.ts), not in an index.
 */
export const idKeyIn = (table: string, keys: readonly string[]): string =>
  `${table}.rowid IN (SELECT rid FROM call_ids_all WHERE key IN (${keys.join(', ')}))`;

/** The keyed columns and the key column of each. */
const KEYED: Readonly<Record<string, string>> = { id: 'id_key', trace_id: 'trace_key', parent_id: 'parent_key' };

/** `values` when `e` is `column IN (string literals)` or `column = string literal` on a keyed column. */
function keyedLiterals(e: Expr): { key: string; values: string[] } | null {
  const column = (x: Expr) =>
    x.kind === 'field' && x.field.kind === 'column' && Object.hasOwn(KEYED, x.field.name) ? KEYED[x.field.name]! : null;
  const text = (x: Expr) => (x.kind === 'literal' && typeof x.value === 'string' ? x.value : null);
  if (e.kind === 'in') {
    const key = column(e.left);
    const values = e.items.map(text);
    if (key === null || values.length === 0 || values.some((v) => v === null)) return null;
    return { key, values: values as string[] };
  }
  if (e.kind === 'compare' && e.op === 'eq') {
    const [key, value] = column(e.left) !== null ? [column(e.left), text(e.right)] : [column(e.right), text(e.left)];
    return key !== null && value !== null ? { key, values: [value] } : null;
  }
  return null;
}

function* conjuncts(e: Expr): Generator<Expr> {
  if (e.kind === 'and') for (const item of e.items) yield* conjuncts(item);
  else yield e;
}

/**
 * The key tests implied by a query's `where`: for each top-level conjunct that pins a keyed
 * column (id, trace_id, parent_id) to string literals, `calls.<key> IN (keys)`. AND-ed to the
 * where, they change no result (equal ids have equal keys) and let the key indexes serve the
 * query. Empty when there is none, and then the project stays the way in.
 */
export function callKeyTests(where: Expr | null): SqlFragment[] {
  if (where === null) return [];
  const tests: SqlFragment[] = [];
  for (const e of conjuncts(where)) {
    const keyed = keyedLiterals(e);
    if (keyed === null) continue;
    tests.push({
      sql:
        keyed.key === 'id_key'
          ? idKeyIn(
              'calls',
              keyed.values.map(() => callKeyOf('?')),
            )
          : `calls.${keyed.key} IN (${keyed.values.map(() => callKeyOf('?')).join(', ')})`,
      params: keyed.values.flatMap(keyParams),
    });
  }
  return tests;
}
