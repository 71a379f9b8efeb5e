// The one walk of the query plan (query/plan.ts) into SQL, shared by both engines. What the
// plan means is decided here, once: empty AND/OR/IN, three-valued NOT, what "is null" and
// $exists mean for a dynamic field, how long chains nest, and how each sort key orders NULLs
// and dynamic values. Each engine's dialect (storage/<engine>/engine/dialect.ts) supplies the
// SQL it spells differently: binding literals, comparisons, IN lists, substring and prefix
// tests, JSON arrays and conversions. test/fixtures/dialects.txt shows both side by side.
//
// `S` is a dialect's piece of SQL (SQLite: text with positional parameters; ClickHouse: text
// whose named parameters are already bound), `T` its static value types, `F` its fields.
import {
  assertNever,
  type ConvertTarget,
  type Expr,
  type FieldRef,
  type Literal,
  type SortTerm,
} from '../../query/plan.js';

/** What every dialect's field carries beside its SQL. */
export interface PlanField<S, T> {
  /** The field's static type, when known. */
  readonly type?: T | null;
  /** True when the value is never NULL: its sort key needs no NULLS LAST (which could keep an index from serving the order). */
  readonly notNull?: boolean;
  /**
   * Present exactly for dynamic (JSON) fields, whose value is JSON_VALUE text ('' when
   * missing): a condition, never NULL, that is true when the path is present and not JSON
   * null. Such fields read "is null" as "absent", and sort by three keys (see printOrderBy).
   */
  readonly exists?: S;
}

/** A printed expression: its SQL, its static type, and where it came from. */
export interface Printed<S, T, F> {
  readonly sql: S;
  readonly type: T | null;
  /** The field behind the value, when it is a bare field. */
  readonly field?: F;
  /** The value, when it is a literal. */
  readonly literal?: Exclude<Literal, null>;
}

export type CompareOp = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';
export const COMPARE_SQL: Readonly<Record<CompareOp, string>> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** What an engine spells its own way. Conditions it prints are of its `bool` type. */
export interface Dialect<S, T, F extends PlanField<S, T>> {
  /** Joins pieces around text from code (never from a request), keeping their parameters in order. */
  sql(strings: TemplateStringsArray, ...parts: S[]): S;
  raw(text: string): S;
  join(parts: readonly S[], separator: string): S;
  readonly bool: T;
  /** The resource's field (an allow-list); throws for fields it does not have. */
  field(ref: FieldRef): F;
  /** The value of a field, as SQL. */
  value(field: F): S;
  /** A bound literal with its type. */
  literal(value: Exclude<Literal, null>): Printed<S, T, F>;
  compare(left: Printed<S, T, F>, op: CompareOp, right: Printed<S, T, F>): S;
  /** `items` is never empty. */
  in(left: Printed<S, T, F>, items: readonly Printed<S, T, F>[]): S;
  contains(input: Printed<S, T, F>, substr: Printed<S, T, F>, caseInsensitive: boolean): S;
  startsWith(input: S, prefix: string): S;
  /** `column` holds a JSON array of strings; `values` and `prefixes` are never both empty. */
  arrayHasAny(column: S, values: readonly string[], prefixes: readonly string[]): S;
  /** $convert to a value type (`exists` is the printer's). */
  cast(input: Printed<S, T, F>, to: Exclude<ConvertTarget, 'exists'>): Printed<S, T, F>;
  /** A dynamic field's text as a number, NULL when it is none: its second sort key. */
  asNumber(field: F): S;
}

/**
 * `(a OP b OP ...)` nested in groups of at most GROUP terms. SQLite parses a chain of AND or OR
 * as a left-deep tree and refuses one deeper than 1000 (SQLITE_MAX_EXPR_DEPTH), ClickHouse
 * limits parser depth too; groups keep a list of MAX_QUERY_OPERANDS terms to a depth of about
 * 2 x GROUP.
 */
const GROUP = 64;

export function printExpr<S, T, F extends PlanField<S, T>>(expr: Expr, d: Dialect<S, T, F>): S {
  return print(expr, d).sql;
}

/** ORDER BY for the terms, null when none. Every key sorts NULLs last in both directions. */
export function printOrderBy<S, T, F extends PlanField<S, T>>(
  sort: readonly SortTerm[],
  d: Dialect<S, T, F>,
): S | null {
  const keys: S[] = [];
  for (const term of sort) {
    const dir = d.raw(term.direction === 'asc' ? 'ASC' : 'DESC');
    const f = d.field(term.field);
    const value = d.value(f);
    // A dynamic field: present values first, then numbers in numeric order, then by text.
    if (f.exists !== undefined) keys.push(d.sql`${f.exists} DESC`, d.sql`${d.asNumber(f)} ${dir} NULLS LAST`);
    keys.push(f.notNull ? d.sql`${value} ${dir}` : d.sql`${value} ${dir} NULLS LAST`);
  }
  return keys.length === 0 ? null : d.sql`ORDER BY ${d.join(keys, ', ')}`;
}

function print<S, T, F extends PlanField<S, T>>(e: Expr, d: Dialect<S, T, F>): Printed<S, T, F> {
  const bool = (sql: S): Printed<S, T, F> => ({ sql, type: d.bool });
  switch (e.kind) {
    case 'literal':
      return e.value === null ? { sql: d.raw('NULL'), type: null } : d.literal(e.value);
    case 'field': {
      const f = d.field(e.field);
      return { sql: d.value(f), type: f.type ?? null, field: f };
    }
    case 'convert': {
      const input = print(e.input, d);
      if (e.to !== 'exists') return d.cast(input, e.to);
      return bool(input.field?.exists ?? d.sql`(${input.sql} IS NOT NULL)`);
    }
    case 'and':
    case 'or':
      if (e.items.length === 0) return bool(d.raw(e.kind === 'and' ? '1' : '0'));
      return bool(
        balanced(
          e.items.map((i) => print(i, d).sql),
          e.kind === 'and' ? ' AND ' : ' OR ',
          d,
        ),
      );
    case 'not':
      // SQL's three-valued logic, as Weave's servers apply it: a comparison with a missing
      // (NULL) column is unknown, and so is its negation, so $not keeps such rows out too.
      // (Missing JSON fields compare as '', not NULL, so their negations stay true.)
      return bool(d.sql`(NOT ${print(e.item, d).sql})`);
    case 'compare':
      return bool(d.compare(print(e.left, d), e.op, print(e.right, d)));
    case 'in':
      if (e.items.length === 0) return bool(d.raw('0'));
      return bool(
        d.in(
          print(e.left, d),
          e.items.map((i) => print(i, d)),
        ),
      );
    case 'contains':
      return bool(d.contains(print(e.input, d), print(e.substr, d), e.caseInsensitive));
    case 'isNull': {
      const input = print(e.input, d);
      // A dynamic value is never SQL NULL (missing reads as ''): "is null" means "absent or JSON null".
      return bool(
        input.field?.exists !== undefined ? d.sql`(NOT ${input.field.exists})` : d.sql`(${input.sql} IS NULL)`,
      );
    }
    case 'startsWith':
      return bool(d.startsWith(print(e.input, d).sql, e.prefix));
    case 'arrayHasAny': {
      if (e.values.length + e.prefixes.length === 0) return bool(d.raw('0'));
      const column = d.value(d.field({ kind: 'column', name: e.column, type: 'string' }));
      return bool(d.arrayHasAny(column, e.values, e.prefixes));
    }
    default:
      return assertNever(e);
  }
}

function balanced<S, T, F extends PlanField<S, T>>(terms: readonly S[], op: string, d: Dialect<S, T, F>): S {
  if (terms.length <= GROUP) return d.sql`(${d.join(terms, op)})`;
  const groups: S[] = [];
  for (let i = 0; i < terms.length; i += GROUP) groups.push(balanced(terms.slice(i, i + GROUP), op, d));
  return balanced(groups, op, d);
}
