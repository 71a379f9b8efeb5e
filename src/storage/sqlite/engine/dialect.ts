// Prints query plan nodes (src/query/plan.ts) as SQLite SQL with `?` parameters.
// Contracts: values only ever travel as parameters; identifiers come from the caller's
// field printer (an allow-list) or are checked here; the printer is resource-neutral,
// so calls and feedback share it, each with its own FieldPrinter.
//
// Dynamic (JSON) values follow ClickHouse JSON_VALUE, as Weave's filters see them:
// missing key or JSON null -> '', strings unquoted, booleans 'true'/'false', numbers
// as text, objects and arrays as minified JSON.
import { InvalidRequestError } from '../../../api/errors.js';
import { assertNever, type ConvertTarget, type Expr, type FieldRef, type SortTerm } from '../../../query/plan.js';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** SQLite storage class of a value, when known statically; it picks the cheapest cast. */
export type SqlValueType = 'text' | 'integer' | 'real' | 'bool';

/** How one field prints. */
export interface FieldSql extends SqlFragment {
  /**
   * Present exactly for dynamic fields (the value is JSON_VALUE text): SQL that is true
   * when the path is present and not JSON null. Dynamic fields test `exists` with it,
   * read "is null" as "does not exist", and sort by three keys (see printSqliteOrderBy).
   */
  exists?: SqlFragment;
  type?: SqlValueType;
  /** True when the value is never NULL: its ORDER BY key needs no NULLS LAST (which would stop an index from serving the order). */
  notNull?: boolean;
}

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

/**
 * `(a OP b OP ...)` nested in groups of at most GROUP terms. SQLite parses a chain of AND or OR
 * as a left-deep tree and refuses one deeper than 1000 (SQLITE_MAX_EXPR_DEPTH); groups keep a
 * list of MAX_QUERY_OPERANDS terms to a depth of about 2 x GROUP.
 */
const GROUP = 64;
function balanced(terms: readonly SqlFragment[], op: string): SqlFragment {
  if (terms.length <= GROUP) return sql`(${joinSql(terms, op)})`;
  const groups: SqlFragment[] = [];
  for (let i = 0; i < terms.length; i += GROUP) groups.push(balanced(terms.slice(i, i + GROUP), op));
  return balanced(groups, op);
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

interface Printed {
  readonly frag: SqlFragment;
  readonly type: SqlValueType | null;
  /** The field behind the value, when it is a bare field (for exists / is null). */
  readonly field?: FieldSql;
}

const COMPARE_SQL = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

export function printSqliteExpr(expr: Expr, printField: FieldPrinter): SqlFragment {
  return new ExprPrinter(printField).print(expr).frag;
}

/**
 * ORDER BY for the terms ('' when none). Every key sorts NULLs last in both directions,
 * as ClickHouse does (SQLite's own default puts them first when ascending). A dynamic
 * field sorts by three keys: present first, then as a number, then as text.
 */
export function printSqliteOrderBy(sort: readonly SortTerm[], printField: FieldPrinter): SqlFragment {
  const keys: SqlFragment[] = [];
  const printer = new ExprPrinter(printField);
  for (const term of sort) {
    const dir = term.direction === 'asc' ? 'ASC' : 'DESC';
    const f = printField(term.field);
    if (f.exists) {
      keys.push(sql`COALESCE(${f.exists}, 0) DESC`);
      keys.push(sql`${printer.cast({ frag: f, type: 'text' }, 'double').frag} ${raw(dir)} NULLS LAST`);
    }
    keys.push(f.notNull ? sql`${f} ${raw(dir)}` : sql`${f} ${raw(dir)} NULLS LAST`);
  }
  return keys.length === 0 ? raw('') : sql`ORDER BY ${joinSql(keys, ', ')}`;
}

class ExprPrinter {
  constructor(private readonly printField: FieldPrinter) {}

  print(e: Expr): Printed {
    switch (e.kind) {
      case 'literal': {
        const v = e.value;
        if (v === null) return { frag: raw('NULL'), type: null };
        const type =
          typeof v === 'string' ? 'text' : typeof v === 'boolean' ? 'bool' : Number.isInteger(v) ? 'integer' : 'real';
        return { frag: param(v), type };
      }
      case 'field': {
        const f = this.printField(e.field);
        return { frag: { sql: f.sql, params: f.params }, type: f.exists ? 'text' : (f.type ?? null), field: f };
      }
      case 'convert':
        return this.cast(this.print(e.input), e.to);
      case 'and':
      case 'or': {
        if (e.items.length === 0) return bool(raw(e.kind === 'and' ? '1' : '0'));
        return bool(
          balanced(
            e.items.map((i) => this.print(i).frag),
            e.kind === 'and' ? ' AND ' : ' OR ',
          ),
        );
      }
      case 'not':
        // SQL's three-valued logic, as Weave's servers apply it: a comparison with a missing
        // (NULL) column is unknown, and so is its negation, so $not keeps such rows out too.
        // (Missing JSON fields compare as '', not NULL, so their negations stay true.)
        return bool(sql`(NOT ${this.print(e.item).frag})`);
      case 'compare':
        return bool(sql`(${this.print(e.left).frag} ${raw(COMPARE_SQL[e.op])} ${this.print(e.right).frag})`);
      case 'in': {
        if (e.items.length === 0) return bool(raw('0'));
        const items = joinSql(
          e.items.map((i) => this.print(i).frag),
          ', ',
        );
        return bool(sql`(${this.print(e.left).frag} IN (${items}))`);
      }
      case 'contains': {
        const input = this.print(e.input).frag;
        const substr = this.print(e.substr).frag;
        // instr() is case-sensitive (LIKE is not, for ASCII); lower() both sides when asked.
        return bool(
          e.caseInsensitive
            ? sql`(instr(lower(${input}), lower(${substr})) > 0)`
            : sql`(instr(${input}, ${substr}) > 0)`,
        );
      }
      case 'isNull': {
        const input = this.print(e.input);
        // A dynamic value is never SQL NULL (missing reads as ''): "is null" means "absent or JSON null".
        if (input.field?.exists) return bool(sql`(NOT COALESCE(${input.field.exists}, 0))`);
        return bool(sql`(${input.frag} IS NULL)`);
      }
      case 'startsWith':
        return bool(startsWith(this.print(e.input).frag, e.prefix));
      case 'arrayHasAny': {
        if (e.values.length + e.prefixes.length === 0) return bool(raw('0'));
        const column = this.printField({ kind: 'column', name: e.column, type: 'string' });
        const tests: SqlFragment[] = [];
        if (e.values.length > 0) tests.push(sql`je.value IN (${joinSql(e.values.map(param), ', ')})`);
        for (const prefix of e.prefixes) tests.push(startsWith(raw('je.value'), prefix));
        return bool(sql`EXISTS (SELECT 1 FROM json_each(${column}) AS je WHERE ${joinSql(tests, ' OR ')})`);
      }
      default:
        return assertNever(e);
    }
  }

  /** $convert: the ClickHouse conversions (toInt64OrNull, toFloat64OrNull, ...) in SQLite. */
  cast(input: Printed, to: ConvertTarget): Printed {
    const x = input.frag;
    switch (to) {
      case 'int':
        if (input.type === 'integer' || input.type === 'bool') return { frag: x, type: 'integer' };
        if (input.type === 'real') return { frag: sql`CAST(${x} AS INTEGER)`, type: 'integer' };
        return { frag: parseNumber(x, "= 'integer'", 'INTEGER'), type: 'integer' };
      case 'double':
        if (input.type === 'integer' || input.type === 'real' || input.type === 'bool')
          return { frag: sql`CAST(${x} AS REAL)`, type: 'real' };
        return { frag: parseNumber(x, "IN ('integer', 'real')", 'REAL'), type: 'real' };
      case 'bool':
        if (input.type === 'bool') return input;
        if (input.type === 'integer' || input.type === 'real')
          return bool(sql`CASE ${x} WHEN 1 THEN 1 WHEN 0 THEN 0 END`);
        return bool(
          sql`CASE CAST(${x} AS TEXT) WHEN 'true' THEN 1 WHEN '1' THEN 1 WHEN 'false' THEN 0 WHEN '0' THEN 0 END`,
        );
      case 'string':
        if (input.type === 'text') return { frag: x, type: 'text' };
        if (input.type === 'bool')
          return { frag: sql`CASE ${x} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END`, type: 'text' };
        return { frag: sql`CAST(${x} AS TEXT)`, type: 'text' };
      case 'exists':
        if (input.field?.exists) return bool(input.field.exists);
        return bool(sql`(${x} IS NOT NULL)`);
      default:
        return assertNever(to);
    }
  }
}

const bool = (frag: SqlFragment): Printed => ({ frag, type: 'bool' });

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
