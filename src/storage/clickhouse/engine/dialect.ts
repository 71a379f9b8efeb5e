// ClickHouse's dialect of the plan (the walk and the rules both engines share: plan-printer.ts),
// with typed server-side parameters ({p0:String}). Contracts, as in the SQLite dialect: values only travel as
// parameters (collected in one ChParams per statement); identifiers come from the caller's
// field printer (an allow-list) or are checked here.
//
// Where the engines differ, the plan's semantics win:
//  - NULLs sort last in both directions: every key says NULLS LAST (ClickHouse's default for
//    DESC would put them first).
//  - Text compares by bytes, as SQLite's BINARY collation does.
//  - $convert follows ClickHouse's *OrNull parsers, which the SQLite dialect imitates.
//  - $not keeps SQL's three-valued logic (NOT of an unknown comparison stays unknown).
// A list parameter is always read as `IN (SELECT arrayJoin({p:Array(String)}))`, never
// `IN {p:Array(String)}`: the latter tests each row against the array one element at a time
// (measured: 72-79 s for 100,000 rows against 100,000 digests, against 0.9 s for the subquery,
// which builds a hash set).
import { InvalidRequestError } from '../../../api/errors.js';
import { assertNever, type ConvertTarget, type Expr, type FieldRef, type SortTerm } from '../../../query/plan.js';
import {
  COMPARE_SQL,
  type CompareOp,
  type Dialect,
  type PlanField,
  type Printed as PlanPrinted,
  printExpr,
  printOrderBy,
} from '../../engine/plan-printer.js';

/** ClickHouse type of a parameter or a value, when known statically. */
export type ChType = 'String' | 'Int64' | 'Float64' | 'UInt8' | 'Array(String)';

/** The parameters of one statement; each value gets the next name (p0, p1, ...). */
export class ChParams {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  /** A placeholder bound to `value` as `type` (null binds as Nullable). */
  add(value: unknown, type: ChType): string {
    const name = `p${this.next++}`;
    // A whole number beyond 2^53 goes as its text, which the server parses for the type (chdb's
    // connection refuses to serialize such numbers; over HTTP they are text anyway).
    this.values[name] =
      typeof value === 'boolean'
        ? value
          ? 1
          : 0
        : typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)
          ? String(value)
          : value;
    return value === null ? `{${name}:Nullable(${type})}` : `{${name}:${type}}`;
  }
}

/** How one field prints: SQL text (its values already bound in the statement's params). */
export interface ChField extends PlanField<string, ChType> {
  readonly sql: string;
  readonly type: ChType | null;
  /**
   * For a dynamic field of a column whose text JSON.stringify wrote: that column. A string the
   * value holds then appears verbatim in it whenever the string has nothing JSON.stringify
   * escapes (see `needle`), so a byte search of the column can rule rows out before any parse.
   */
  readonly text?: string;
}

export type ChFieldPrinter = (field: FieldRef, params: ChParams) => ChField;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** A (qualified) identifier; anything else is a programming error, never printed. */
export function chIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a safe ClickHouse identifier: ${JSON.stringify(name)}`);
  return name;
}

type Printed = PlanPrinted<string, ChType, ChField>;

export const CONTROL_CHARS = /[\u0000-\u001f]/;
/** Most strings an IN list's text search takes in one pass (multiSearchAny's limit is 255). */
const MAX_NEEDLES = 100;
/** A UTF-16 surrogate without its pair (which JSON.stringify escapes). */
export const LONE_SURROGATE = /\p{Cs}/u;
/** Text made only of what numbers are printed with. */
const NUMBER_TEXT = /^[-+.\deE]+$/;
/** Text JSON.stringify writes as it is (nothing it escapes). */
const PLAIN = /^[^"\\\u0000-\u001f]*$/;

/** A path part the JSONPath reads as an array index (any other part is a quoted key). */
export const ARRAY_INDEX_PART = /^\d{1,9}$/;

/** ClickHouse JSONPath of plan path parts: digit-only parts index arrays, others are quoted keys. */
export function chJsonPath(path: readonly string[]): string {
  // Refused as on SQLite (which cannot take them), so that both engines answer alike.
  if (path.some((p) => CONTROL_CHARS.test(p)))
    throw new InvalidRequestError('A field path must not contain control characters');
  return `$${path.map((p) => (ARRAY_INDEX_PART.test(p) ? `[${Number(p)}]` : `[${JSON.stringify(p)}]`)).join('')}`;
}

/**
 * A path inside a JSON text column, with JSON_VALUE's semantics as Weave's filters see them
 * (missing or JSON null -> '', strings unquoted, objects and arrays as JSON text; the
 * statement needs function_json_value_return_type_allow_complex = 1, which the engine sets).
 */
export function chJsonField(column: string, path: readonly string[], params: ChParams, stringified = false): ChField {
  const c = chIdentifier(column);
  const p = params.add(chJsonPath(path), 'String');
  // One parse of the document per row: JSON_QUERY gives the value wrapped in a one-item array,
  // from which both tests read (ClickHouse computes the identical JSON_QUERY once), and
  // JSON_VALUE unwraps that short text. Measured on chdb, 1M calls, a filter and a sort on two
  // input fields: 911 -> 795 ms against JSON_QUERY and JSON_VALUE each parsing the document.
  const wrapped = `JSON_QUERY(${c}, ${p})`;
  // A NULL document (a call's output before its end) is missing, as on SQLite (json_extract of NULL).
  const exists = `(ifNull(${wrapped}, '') NOT IN ('', '[null]'))`;
  return {
    sql: `if(${exists}, JSON_VALUE(${wrapped}, '$[0]'), '')`,
    type: 'String',
    notNull: true,
    exists,
    ...(stringified ? { text: c } : {}),
  };
}

/**
 * A string that is in the column of every row whose dynamic field `f` equals `value` (or, when
 * `part`, contains it); null when there is none. That is `value` itself
 * when the column is JSON.stringify text and `value` has nothing JSON.stringify escapes
 * (quote, backslash, control characters, lone surrogates), so that a string the field holds
 * is in the column as it is, and when `value` cannot come from the one text the two write
 * differently, a number (ClickHouse prints 1e-7 as 1e-07, 0.000001 as 1e-06): an equal value
 * is no number and no object or array (which hold numbers); a part holds no digit, and holds a
 * character no number has, so it cannot lie inside one. A byte search rules rows out at ~2x
 * the speed of parsing each document (measured on chdb, 1M calls, an equality on inputs.model
 * matching 10%: 911 -> 632 ms); the parse runs only where it passes.
 */
function needle(f: ChField | undefined, value: unknown, part = false): string | null {
  if (
    f?.text === undefined ||
    typeof value !== 'string' ||
    value === '' ||
    !PLAIN.test(value) ||
    LONE_SURROGATE.test(value)
  )
    return null;
  const fits = part ? !/\d/.test(value) && /[^.eE+-]/.test(value) : !NUMBER_TEXT.test(value) && !/^[[{]/.test(value);
  return fits ? value : null;
}

const NUMERIC: ReadonlySet<ChType | null> = new Set<ChType | null>(['Int64', 'Float64', 'UInt8']);
/** One side text, the other a number: ClickHouse cannot compare them as they are. */
const mixed = (a: Printed, b: Printed) =>
  (a.type === 'String' && NUMERIC.has(b.type)) || (NUMERIC.has(a.type) && b.type === 'String');

export function printChExpr(expr: Expr, printField: ChFieldPrinter, params: ChParams): string {
  return printExpr(expr, chDialect(printField, params));
}

/** ORDER BY for the terms ('' when none); the rules are plan-printer.ts's. */
export function printChOrderBy(sort: readonly SortTerm[], printField: ChFieldPrinter, params: ChParams): string {
  return printOrderBy(sort, chDialect(printField, params)) ?? '';
}

/** Concatenation: a ClickHouse piece is text whose parameters are already bound. */
function sql(strings: TemplateStringsArray, ...parts: string[]): string {
  return strings.reduce((out, s, i) => out + s + (i < parts.length ? parts[i]! : ''), '');
}

/** ClickHouse's spelling of the plan over one resource's fields, binding into `params`. */
function chDialect(printField: ChFieldPrinter, params: ChParams): Dialect<string, ChType, ChField> {
  const bind = (v: unknown, type: ChType) => params.add(v, type);
  return {
    sql,
    raw: (text) => text,
    join: (parts, separator) => parts.join(separator),
    bool: 'UInt8',
    field: (ref) => printField(ref, params),
    value: (f) => f.sql,
    literal: (v) => {
      // Integers beyond 2^53 travel as Float64 (as SQLite reads such a literal: a REAL), never as
      // an Int64 the server could not parse.
      const type: ChType =
        typeof v === 'string'
          ? 'String'
          : typeof v === 'boolean'
            ? 'UInt8'
            : Number.isSafeInteger(v)
              ? 'Int64'
              : 'Float64';
      return { sql: bind(v, type), type, literal: v };
    },
    compare: (left, op, right) => {
      const test = compare(left, op, right);
      if (op !== 'eq') return test;
      const [f, n] =
        left.field?.text !== undefined
          ? [left.field, needle(left.field, right.literal)]
          : [right.field, needle(right.field, left.literal)];
      return n === null ? test : `(position(${f!.text}, ${bind(n, 'String')}) > 0 AND ${test})`;
    },
    in: (left, items) => {
      // An item of the other kind (text against a number) never equals, as in SQLite's IN.
      const alike = items.filter((i) => !mixed(left, i));
      if (alike.length === 0) return '0';
      const test = `(${left.sql} IN (${alike.map((i) => i.sql).join(', ')}))`;
      // One pass over the text for all the strings (multiSearchAny takes at most 255 of them).
      const needles = alike.length <= MAX_NEEDLES ? alike.map((i) => needle(left.field, i.literal)) : [null];
      if (needles.some((n) => n === null)) return test;
      return `(multiSearchAny(${left.field!.text}, [${needles.map((n) => bind(n, 'String')).join(', ')}]) AND ${test})`;
    },
    contains: (input, substr, caseInsensitive) => {
      const search = caseInsensitive ? 'positionCaseInsensitiveUTF8' : 'position';
      const test = `(${search}(${input.sql}, ${substr.sql}) > 0)`;
      const n = needle(input.field, substr.literal, true);
      return n === null ? test : `(${search}(${input.field!.text}, ${bind(n, 'String')}) > 0 AND ${test})`;
    },
    startsWith: (input, prefix) => `startsWith(${input}, ${bind(prefix, 'String')})`,
    arrayHasAny: (column, values, prefixes) => {
      const tests: string[] = [];
      if (values.length > 0) tests.push(`x IN (${values.map((v) => bind(v, 'String')).join(', ')})`);
      for (const prefix of prefixes) tests.push(`startsWith(x, ${bind(prefix, 'String')})`);
      return `arrayExists(x -> ${tests.join(' OR ')}, JSONExtract(${column}, 'Array(String)'))`;
    },
    cast,
    asNumber: (f) => `toFloat64OrNull(${f.sql})`,
  };
}

/**
 * A comparison. Text against a number never fails (ClickHouse would parse the text as a
 * number and throw): as SQLite compares, a text column takes the number as text; a JSON value
 * or a number column compares as a number when the text is numeric, and otherwise numbers
 * sort before text (a missing JSON value compares as nothing, false).
 */
function compare(left: Printed, op: CompareOp, right: Printed): string {
  if (!mixed(left, right)) return `(${left.sql} ${COMPARE_SQL[op]} ${right.sql})`;
  const textLeft = left.type === 'String';
  const text = textLeft ? left : right;
  const num = textLeft ? right : left;
  if (text.field !== undefined && text.field.exists === undefined) {
    return textLeft
      ? `(${text.sql} ${COMPARE_SQL[op]} toString(${num.sql}))`
      : `(toString(${num.sql}) ${COMPARE_SQL[op]} ${text.sql})`;
  }
  const asNumber = `toFloat64OrNull(${text.sql})`;
  const numeric = textLeft
    ? `(${asNumber} ${COMPARE_SQL[op]} ${num.sql})`
    : `(${num.sql} ${COMPARE_SQL[op]} ${asNumber})`;
  // Text against a number: text is greater.
  const textGreater = op === 'gt' || op === 'gte';
  const textSmaller = op === 'lt' || op === 'lte';
  const otherwise = (textLeft ? textGreater : textSmaller) ? '1' : '0';
  const missing = text.field?.exists ? `NOT ${text.field.exists}` : `${text.sql} IS NULL`;
  return `multiIf(${missing}, NULL, ${asNumber} IS NULL, ${otherwise}, ${numeric})`;
}

/** $convert with ClickHouse's own conversions: unparsable text gives NULL. */
function cast(input: Printed, to: Exclude<ConvertTarget, 'exists'>): Printed {
  const x = input.sql;
  switch (to) {
    case 'int':
      if (input.type === 'Int64' || input.type === 'UInt8') return { sql: `toInt64(${x})`, type: 'Int64' };
      if (input.type === 'Float64') return { sql: `toInt64OrNull(toString(trunc(${x})))`, type: 'Int64' };
      return { sql: `toInt64OrNull(toString(${x}))`, type: 'Int64' };
    case 'double':
      if (input.type === 'Int64' || input.type === 'Float64' || input.type === 'UInt8')
        return { sql: `toFloat64(${x})`, type: 'Float64' };
      return { sql: `toFloat64OrNull(toString(${x}))`, type: 'Float64' };
    case 'bool':
      if (input.type === 'UInt8') return input;
      return {
        sql: `multiIf(toString(${x}) IN ('true', '1'), 1, toString(${x}) IN ('false', '0'), 0, NULL)`,
        type: 'UInt8',
      };
    case 'string':
      if (input.type === 'String') return input;
      if (input.type === 'UInt8') return { sql: `if(${x} = 1, 'true', 'false')`, type: 'String' };
      return { sql: `toString(${x})`, type: 'String' };
    default:
      return assertNever(to);
  }
}
