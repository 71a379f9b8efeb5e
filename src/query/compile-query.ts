// Compiles Weave's `$expr` query language (weave-api.md §3.6.2) into the plan.
// The request schema only checks the envelope, so every structural check happens
// here and reports where it failed (`$expr.$and[1].$eq`) as an InvalidRequestError
// (400). Field names go through the catalog, which throws InvalidFieldError (422).
//
// Typing decisions are made here, once, so that every dialect prints plainly:
//  * `$eq` with a null literal becomes an `isNull` node;
//  * a dynamic (JSON_VALUE text) field compared to number literals is wrapped in
//    `convert double`, to bool literals in `convert bool` (newest Weave's
//    infer_literal_filter_cast). Weave picks `int` for integer literals, but JSON cannot
//    tell 5 from 5.0, so Weft always compares numbers as doubles: the same answers for
//    integral values, and no silent NULL (hence no match) for non-integral ones;
//  * literals compared to datetime columns become integer microseconds (ISO strings, or
//    numbers taken as unix seconds).
//
// An expression holds at most MAX_QUERY_OPERANDS operands nested at most MAX_QUERY_DEPTH deep
// (api/limits.ts): checked as it is walked, so an oversized one costs no more than the bound
// before its 400, and no printer or engine meets an expression deeper than it can take.
import { InvalidRequestError } from '../api/errors.js';
import { MAX_QUERY_DEPTH, MAX_QUERY_OPERANDS } from '../api/limits.js';
import { tryParseTimestamp } from '../time.js';
import type { ConvertTarget, Expr, FieldCatalog, FieldRef, Literal } from './plan.js';

type CompareOp = Extract<Expr, { kind: 'compare' }>['op'];

const COMPARE_OPS: Readonly<Record<string, CompareOp>> = {
  $eq: 'eq',
  $gt: 'gt',
  $gte: 'gte',
  $lt: 'lt',
  $lte: 'lte',
};
const CONVERT_TARGETS: readonly ConvertTarget[] = ['double', 'string', 'int', 'bool', 'exists'];
const OPERATIONS = ['$and', '$or', '$not', '$eq', '$gt', '$gte', '$lt', '$lte', '$in', '$contains'];

export function compileQuery(query: { $expr: Record<string, unknown> }, catalog: FieldCatalog): Expr {
  return new QueryCompiler(catalog).operation(query.$expr, '$expr');
}

/** True for a field whose value is JSON_VALUE text (calls' JSON columns, feedback payload paths). */
export function isDynamicField(field: FieldRef): boolean {
  return field.kind === 'json' || (field.kind === 'feedback' && field.path[0] === 'payload');
}

function fail(at: string, message: string): never {
  throw new InvalidRequestError(`Invalid query at ${at}: ${message}`);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An operation or operand is an object with exactly one `$`-key. */
function singleKey(node: unknown, at: string): [string, unknown] {
  if (!isPlainObject(node)) fail(at, `expected an object with one operator key, got ${describe(node)}`);
  const keys = Object.keys(node);
  if (keys.length !== 1)
    fail(at, `expected exactly one operator key, got ${keys.length === 0 ? 'none' : keys.join(', ')}`);
  const key = keys[0]!;
  return [key, node[key]];
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? 'a string' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function operandList(value: unknown, at: string, count?: number): unknown[] {
  if (!Array.isArray(value)) fail(at, `expected an array of operands, got ${describe(value)}`);
  if (count !== undefined && value.length !== count) {
    fail(at, `expected exactly ${count} operand${count === 1 ? '' : 's'}, got ${value.length}`);
  }
  return value;
}

/** Keys of an object-shaped operator: required ones must be present, no others allowed. */
function checkKeys(
  value: unknown,
  at: string,
  required: readonly string[],
  optional: readonly string[],
): Record<string, unknown> {
  if (!isPlainObject(value)) fail(at, `expected an object, got ${describe(value)}`);
  for (const key of required) if (!(key in value)) fail(at, `missing "${key}"`);
  for (const key of Object.keys(value)) {
    if (!required.includes(key) && !optional.includes(key)) fail(at, `unexpected key "${key}"`);
  }
  return value;
}

const literalOf = (e: Expr): Literal | undefined => (e.kind === 'literal' ? e.value : undefined);
const isNullLiteral = (e: Expr) => e.kind === 'literal' && e.value === null;

class QueryCompiler {
  private operands = 0;
  private depth = 0;

  constructor(private readonly catalog: FieldCatalog) {}

  /** A boolean-valued operation: what `$expr` and logical operators hold at their top. */
  operation(node: unknown, at: string): Expr {
    const [key] = singleKey(node, at);
    if (!OPERATIONS.includes(key)) {
      fail(at, `expected an operation (${OPERATIONS.join(', ')}), got "${key}"`);
    }
    return this.operand(node, at);
  }

  /** Any operand: a literal, a field, a conversion or an operation; counted against the bounds. */
  operand(node: unknown, at: string): Expr {
    if (++this.operands > MAX_QUERY_OPERANDS) {
      throw new InvalidRequestError(
        `Query too large at ${at}: at most ${MAX_QUERY_OPERANDS} operands are allowed; split it into several requests`,
      );
    }
    if (this.depth >= MAX_QUERY_DEPTH)
      throw new InvalidRequestError(`Query nested too deeply at ${at}: at most ${MAX_QUERY_DEPTH} levels are allowed`);
    this.depth += 1;
    try {
      return this.node(node, at);
    } finally {
      this.depth -= 1;
    }
  }

  private node(node: unknown, at: string): Expr {
    const [key, value] = singleKey(node, at);
    const here = `${at}.${key}`;
    switch (key) {
      case '$literal':
        return { kind: 'literal', value: this.literal(value, here) };
      case '$getField':
        if (typeof value !== 'string' || value.length === 0) fail(here, 'expected a non-empty field name');
        return { kind: 'field', field: this.catalog.resolve(value) };
      case '$convert': {
        const spec = checkKeys(value, here, ['input', 'to'], []);
        const to = spec.to;
        if (typeof to !== 'string' || !(CONVERT_TARGETS as readonly string[]).includes(to)) {
          fail(`${here}.to`, `expected one of ${CONVERT_TARGETS.join(', ')}, got ${JSON.stringify(to)}`);
        }
        return { kind: 'convert', input: this.operand(spec.input, `${here}.input`), to: to as ConvertTarget };
      }
      case '$and':
      case '$or': {
        const list = operandList(value, here);
        if (list.length === 0)
          throw new InvalidRequestError(`Empty ${key === '$and' ? 'AND' : 'OR'} operation (at ${here})`);
        const items = list.map((item, i) => this.operand(item, `${here}[${i}]`));
        return key === '$and' ? { kind: 'and', items } : { kind: 'or', items };
      }
      case '$not': {
        const [item] = operandList(value, here, 1);
        return { kind: 'not', item: this.operand(item, `${here}[0]`) };
      }
      case '$eq':
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const [a, b] = operandList(value, here, 2);
        return this.compare(COMPARE_OPS[key]!, this.operand(a, `${here}[0]`), this.operand(b, `${here}[1]`));
      }
      case '$in': {
        const [a, list] = operandList(value, here, 2);
        const left = this.operand(a, `${here}[0]`);
        const items = operandList(list, `${here}[1]`).map((item, i) => this.operand(item, `${here}[1][${i}]`));
        return this.inList(left, items);
      }
      case '$contains': {
        const spec = checkKeys(value, here, ['input', 'substr'], ['case_insensitive']);
        const ci = spec.case_insensitive ?? false;
        if (typeof ci !== 'boolean') fail(`${here}.case_insensitive`, `expected a boolean, got ${describe(ci)}`);
        const substr = this.operand(spec.substr, `${here}.substr`);
        const needle = literalOf(substr);
        if (needle !== undefined && typeof needle !== 'string') {
          fail(`${here}.substr`, `the substring must be a string, got ${describe(needle)}`);
        }
        return { kind: 'contains', input: this.operand(spec.input, `${here}.input`), substr, caseInsensitive: ci };
      }
      default:
        return fail(at, `unknown operator "${key}"`);
    }
  }

  private literal(value: unknown, at: string): Literal {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    return fail(at, `only string, number, boolean and null literals are supported, got ${describe(value)}`);
  }

  private compare(op: CompareOp, left: Expr, right: Expr): Expr {
    if (op === 'eq' && isNullLiteral(right)) return { kind: 'isNull', input: left };
    if (op === 'eq' && isNullLiteral(left)) return { kind: 'isNull', input: right };
    return { kind: 'compare', op, left: this.adapt(left, [right]), right: this.adapt(right, [left]) };
  }

  private inList(left: Expr, items: Expr[]): Expr {
    return { kind: 'in', left: this.adapt(left, items), items: items.map((item) => this.adapt(item, [left])) };
  }

  /**
   * Adapts `e` to what it is compared with: a dynamic field gets the cast its literal
   * counterparts call for; a literal compared with a datetime column becomes micros.
   */
  private adapt(e: Expr, others: readonly Expr[]): Expr {
    if (e.kind === 'field' && isDynamicField(e.field)) {
      const to = inferCast(others);
      return to === null ? e : { kind: 'convert', input: e, to };
    }
    if (e.kind === 'literal' && e.value !== null) {
      const other = others[0];
      if (
        others.length === 1 &&
        other?.kind === 'field' &&
        other.field.kind === 'column' &&
        other.field.type === 'datetime'
      ) {
        return { kind: 'literal', value: toMicros(e.value) };
      }
    }
    return e;
  }
}

/** double when every non-null counterpart is a number literal, bool when all are booleans. */
function inferCast(others: readonly Expr[]): ConvertTarget | null {
  const values: Literal[] = [];
  for (const o of others) {
    if (o.kind !== 'literal') return null;
    if (o.value !== null) values.push(o.value);
  }
  if (values.length === 0) return null;
  if (values.every((v) => typeof v === 'number')) return 'double';
  if (values.every((v) => typeof v === 'boolean')) return 'bool';
  return null;
}

/** A datetime literal: an ISO 8601 string (naive = UTC) or unix seconds. */
function toMicros(value: string | number | boolean): number {
  if (typeof value === 'number') return Math.round(value * 1_000_000);
  if (typeof value === 'string') {
    const us = tryParseTimestamp(value);
    if (us !== null) return us;
  }
  throw new InvalidRequestError(
    `Invalid query: cannot compare a datetime field with ${JSON.stringify(value)} (expected an ISO 8601 string or unix seconds)`,
  );
}
