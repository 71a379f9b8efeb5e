// SQLite's dialect of the plan (the walk and the rules both engines share: plan-printer.ts),
// with `?` parameters. Contracts: values only ever travel as parameters; identifiers come
// from the caller's field printer (an allow-list) or are checked here; the dialect is
// resource-neutral, so calls, feedback, tables and costs share it, each with its own FieldPrinter.
//
// Dynamic (JSON) values follow ClickHouse JSON_VALUE, as Weave's filters see them:
// missing key or JSON null -> '', strings unquoted, booleans 'true'/'false', numbers
// as text, objects and arrays as minified JSON.
import { InvalidRequestError } from '../../../api/errors.js';
import { assertNever, type ConvertTarget, type Expr, type FieldRef, type SortTerm } from '../../../query/plan.js';
import {
  COMPARE_SQL,
  type Dialect,
  type PlanField,
  type Printed as PlanPrinted,
  printExpr,
  printOrderBy,
} from '../../engine/plan-printer.js';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** SQLite storage class of a value, when known statically; it picks the cheapest cast. */
export type SqlValueType = 'text' | 'integer' | 'real' | 'bool';

/** How one field prints: its SQL, and what plan-printer.ts needs to know of it. */
export interface FieldSql extends SqlFragment, PlanField<SqlFragment, SqlValueType> {}

/** Maps a plan field to SQL; throws for fields the resource does not have. */
export type FieldPrinter = (field: FieldRef) => FieldSql;

/** `sql` tagged template: interpolations are fragments, whose params are kept in order. */
export function sql(strings: TemplateStringsArray, ...parts: SqlFragment[]): SqlFragment {
  let text = strings[0]!;
  const params: unknown[] = [];
  parts.forEach((p, i) => {
    text += p.sql + strings[i + 1]!;
    params.push(...p.params);
  });
  return { sql: text, params };
}

/**
 * A bound value. SQLite has no booleans: they bind as 1 / 0. Integral numbers bind as
 * BigInt, which better-sqlite3 binds as INTEGER (a plain number binds as REAL, and
 * CAST(5.0 AS TEXT) would then read '5.0'). A string holding a lone UTF-16 surrogate binds as
 * its WTF-8 bytes cast to text: better-sqlite3 13 (Node-API) would bind the surrogate as U+FFFD,
 * while SQLite's JSON functions decode the stored escape (\ud800) to those bytes.
 */
export function param(value: string | number | boolean | null): SqlFragment {
  if (typeof value === 'string' && !value.isWellFormed()) return { sql: 'CAST(? AS TEXT)', params: [wtf8(value)] };
  const bound =
    typeof value === 'boolean'
      ? value
        ? 1n
        : 0n
      : typeof value === 'number' && Number.isSafeInteger(value)
        ? BigInt(value)
        : value;
  return { sql: '?', params: [bound] };
}

/** UTF-8, with each lone surrogate encoded as if it were a code point (WTF-8). */
function wtf8(s: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      i += 1;
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Buffer.from(out);
}

export function joinSql(parts: readonly SqlFragment[], separator: string): SqlFragment {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}

/** Raw SQL text from code, never from a request. */
const raw = (text: string): SqlFragment => ({ sql: text, params: [] });

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** A (qualified) column name; anything else is a programming error, never printed. */
export function sqlIdentifier(name: string): SqlFragment {
  if (!IDENTIFIER.test(name)) throw new Error(`not a safe SQL identifier: ${JSON.stringify(name)}`);
  return raw(name);
}

/** SQLite JSON path of plan path parts: digit-only parts index arrays, others are quoted keys. */
const CONTROL_CHARS = /[\u0000-\u001f]/;

export function sqliteJsonPath(path: readonly string[]): string {
  // SQLite refuses control characters in a JSON path; no JSON key the SDKs write has them.
  if (path.some((p) => CONTROL_CHARS.test(p)))
    throw new InvalidRequestError('A field path must not contain control characters');
  return `$${path.map((p) => (/^\d{1,9}$/.test(p) ? `[${Number(p)}]` : `."${p.replace(/["\\]/g, (c) => `\\${c}`)}"`)).join('')}`;
}

/** JSON_VALUE(column, path) as ClickHouse computes it. `column` is an identifier holding JSON text. */
export function sqliteJsonValue(column: string, path: readonly string[]): SqlFragment {
  const c = sqlIdentifier(column);
  const p = param(sqliteJsonPath(path));
  // Integral reals (5.0) print as integers, as ClickHouse does; others keep their JSON text.
  return sql`CASE COALESCE(json_type(${c}, ${p}), 'null') WHEN 'null' THEN '' WHEN 'text' THEN ${c} ->> ${p} WHEN 'real' THEN CASE WHEN (${c} ->> ${p}) = CAST(${c} ->> ${p} AS INTEGER) THEN CAST(CAST(${c} ->> ${p} AS INTEGER) AS TEXT) ELSE ${c} -> ${p} END ELSE ${c} -> ${p} END`;
}

/** True when the path is present in the JSON text and its value is not JSON null. */
export function sqliteJsonExists(column: string, path: readonly string[]): SqlFragment {
  return sql`(COALESCE(json_type(${sqlIdentifier(column)}, ${param(sqliteJsonPath(path))}), 'null') <> 'null')`;
}

/** The FieldSql of a dynamic field stored in a JSON text column. */
export function sqliteJsonField(column: string, path: readonly string[]): FieldSql {
  return { ...sqliteJsonValue(column, path), exists: sqliteJsonExists(column, path), type: 'text' };
}

type Printed = PlanPrinted<SqlFragment, SqlValueType, FieldSql>;

export function printSqliteExpr(expr: Expr, printField: FieldPrinter): SqlFragment {
  return printExpr(expr, sqliteDialect(printField));
}

/** ORDER BY for the terms ('' when none); the rules are plan-printer.ts's. */
export function printSqliteOrderBy(sort: readonly SortTerm[], printField: FieldPrinter): SqlFragment {
  return printOrderBy(sort, sqliteDialect(printField)) ?? raw('');
}

/** SQLite's spelling of the plan over one resource's fields. */
function sqliteDialect(printField: FieldPrinter): Dialect<SqlFragment, SqlValueType, FieldSql> {
  return {
    sql,
    raw,
    join: joinSql,
    bool: 'bool',
    field: printField,
    value: (f) => ({ sql: f.sql, params: f.params }),
    literal: (v) => ({
      sql: param(v),
      type: typeof v === 'string' ? 'text' : typeof v === 'boolean' ? 'bool' : Number.isInteger(v) ? 'integer' : 'real',
      literal: v,
    }),
    compare: (left, op, right) => sql`(${left.sql} ${raw(COMPARE_SQL[op])} ${right.sql})`,
    in: (left, items) =>
      sql`(${left.sql} IN (${joinSql(
        items.map((i) => i.sql),
        ', ',
      )}))`,
    // instr() is case-sensitive (LIKE is not, for ASCII); lower() both sides when asked.
    contains: (input, substr, caseInsensitive) =>
      caseInsensitive
        ? sql`(instr(lower(${input.sql}), lower(${substr.sql})) > 0)`
        : sql`(instr(${input.sql}, ${substr.sql}) > 0)`,
    startsWith,
    arrayHasAny: (column, values, prefixes) => {
      const tests: SqlFragment[] = [];
      if (values.length > 0) tests.push(sql`je.value IN (${joinSql(values.map(param), ', ')})`);
      for (const prefix of prefixes) tests.push(startsWith(raw('je.value'), prefix));
      return sql`EXISTS (SELECT 1 FROM json_each(${column}) AS je WHERE ${joinSql(tests, ' OR ')})`;
    },
    cast,
    asNumber: (f) => cast({ sql: f, type: 'text' }, 'double').sql,
  };
}

/** $convert: the ClickHouse conversions (toInt64OrNull, toFloat64OrNull, ...) in SQLite. */
function cast(input: Printed, to: Exclude<ConvertTarget, 'exists'>): Printed {
  const x = input.sql;
  switch (to) {
    case 'int':
      if (input.type === 'integer' || input.type === 'bool') return { sql: x, type: 'integer' };
      if (input.type === 'real') return { sql: sql`CAST(${x} AS INTEGER)`, type: 'integer' };
      return { sql: parseNumber(x, "= 'integer'", 'INTEGER'), type: 'integer' };
    case 'double':
      if (input.type === 'integer' || input.type === 'real' || input.type === 'bool')
        return { sql: sql`CAST(${x} AS REAL)`, type: 'real' };
      return { sql: parseNumber(x, "IN ('integer', 'real')", 'REAL'), type: 'real' };
    case 'bool':
      if (input.type === 'bool') return input;
      if (input.type === 'integer' || input.type === 'real')
        return { sql: sql`CASE ${x} WHEN 1 THEN 1 WHEN 0 THEN 0 END`, type: 'bool' };
      return {
        sql: sql`CASE CAST(${x} AS TEXT) WHEN 'true' THEN 1 WHEN '1' THEN 1 WHEN 'false' THEN 0 WHEN '0' THEN 0 END`,
        type: 'bool',
      };
    case 'string':
      if (input.type === 'text') return { sql: x, type: 'text' };
      if (input.type === 'bool')
        return { sql: sql`CASE ${x} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END`, type: 'text' };
      return { sql: sql`CAST(${x} AS TEXT)`, type: 'text' };
    default:
      return assertNever(to);
  }
}

/**
 * Text -> number, NULL unless the whole text is a JSON number of the wanted kind (the
 * strictness of ClickHouse's *OrNull parsers: 'abc', '', '5 apples' give NULL, not 0 as
 * SQLite's CAST would). The CASEs are nested because SQLite's AND does not promise to
 * short-circuit and json_type() raises on malformed JSON.
 */
function parseNumber(x: SqlFragment, typeTest: string, target: 'INTEGER' | 'REAL'): SqlFragment {
  return sql`CASE WHEN json_valid(${x}) THEN CASE WHEN json_type(${x}) ${raw(typeTest)} THEN CAST(${x} AS ${raw(target)}) END END`;
}

/**
 * `x` starts with `prefix`. With an ASCII last character it is a range (index-friendly:
 * `p:` <= x < `p;` under BINARY collation); otherwise a substr() test.
 */
function startsWith(x: SqlFragment, prefix: string): SqlFragment {
  if (prefix.length === 0) return sql`(${x} IS NOT NULL)`;
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last < 0x7f) {
    const upper = prefix.slice(0, -1) + String.fromCharCode(last + 1);
    return sql`(${x} >= ${param(prefix)} AND ${x} < ${param(upper)})`;
  }
  return sql`(substr(${x}, 1, ${param([...prefix].length)}) = ${param(prefix)})`;
}
