// The SQL that reads calls on ClickHouse, printed from a compiled CallsQuery with typed
// parameters. A call may have several rows (clickhouse/calls/call-rows.ts); a read takes the newest
// one with FINAL, which ClickHouse 26 runs as an in-order merge of the overlapping parts only
// (measured on chdb, 1M calls all written twice: newest 100 in 161 ms with FINAL against
// 458 ms with LIMIT 1 BY id; an input-field filter and sort 500 ms against 1,148 ms). The
// conditions every row of a call agrees on (its start's fields) run in PREWHERE, before the
// merge; the others after it. Feedback fields join the project's feedback per call ref.
import type { StoredCall } from '../../calls/call-store.js';
import {
  CALL_COLUMNS,
  type CallColumn,
  type CallsQuery,
  type ColumnType,
  callColumnSpec,
} from '../../../query/calls-query.js';
import { assertNever, type Expr, type FieldRef } from '../../../query/plan.js';
import { CALL_JSON_COLUMNS } from '../../../query/calls-fields.js';
import type { Micros } from '../../../time.js';
import {
  ChParams,
  chIdentifier,
  chJsonField,
  printChExpr,
  printChOrderBy,
  type ChField,
  type ChFieldPrinter,
  type ChType,
} from '../engine/dialect.js';
import { FeedbackJoins } from './feedback-joins.js';
import { leafField } from './json-leaves.js';
import { liveAt } from './live.js';

/** The key of a dynamic field in a set of fields read from leaves. */
export const leafKey = (column: string, path: readonly string[]): string => JSON.stringify([column, ...path]);

/** The dynamic fields (leafKeys) a statement reads from leaves (see clickhouse/calls/call-leaves.ts). */
export interface LeafReads {
  readonly keys: ReadonlySet<string>;
}
export const NO_LEAVES: LeafReads = { keys: new Set() };

/** The plan's column types as ClickHouse stores them (the catalogue: query/calls-query.ts). */
const CH_TYPE: Readonly<Record<ColumnType, ChType>> = { string: 'String', int: 'Int64', datetime: 'Int64' };
/** Never NULL here beyond the catalogue's: the extracted refs are non-Nullable String columns ('' when none). */
const CH_NOT_NULL: ReadonlySet<string> = new Set(['input_refs', 'output_refs']);

/** Columns every row of a call holds alike (its start's): conditions on them may run before the merge. */
const START_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'project_id',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'op_name',
  'started_at',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'expire_at',
  'input_refs',
  'inputs',
  'attributes',
]);

/** 'error' if exception is non-empty, else 'running' while not ended, else 'descendant_error' if summary.status_counts.error > 0, else 'success'. */
const STATUS = `multiIf(coalesce(calls.exception, '') != '', 'error', calls.ended_at IS NULL, 'running', coalesce(JSONExtractFloat(coalesce(calls.summary, '{}'), 'status_counts', 'error'), 0) > 0, 'descendant_error', 'success')`;
/** Whole milliseconds between start and end (floor), NULL while running. */
const LATENCY = `if(calls.ended_at IS NULL, NULL, intDiv(calls.ended_at - calls.started_at, 1000) - if((calls.ended_at - calls.started_at) % 1000 < 0, 1, 0))`;
/** display_name when non-empty, else the name inside an op ref (weave:///e/p/op/<name>:<digest>), else op_name. */
const OP_TAIL = `substring(calls.op_name, 10)`;
const TRACE_NAME = `multiIf(coalesce(calls.display_name, '') != '', calls.display_name,
  startsWith(calls.op_name, 'weave:///') AND match(${OP_TAIL}, '^[^/]*/[^/]*/op/[^:]+:'), extract(${OP_TAIL}, '^[^/]*/[^/]*/op/([^:]+):'),
  calls.op_name)`.replace(/\s+/g, ' ');

function computedField(name: string): ChField {
  switch (name) {
    case 'status':
      return { sql: STATUS, type: 'String', notNull: true };
    case 'latency_ms':
      return { sql: LATENCY, type: 'Int64' };
    case 'trace_name':
      return { sql: TRACE_NAME, type: 'String', notNull: true };
    default:
      throw new Error(`unknown computed calls field: ${name}`);
  }
}

/**
 * The field printer of calls (alias `calls`), feedback fields through `joins`; the dynamic
 * fields in `leaves` (leafKey) read from their column's leaves, the others from the JSON text.
 */
export function callsFieldPrinter(joins: FeedbackJoins | null, leaves: LeafReads = NO_LEAVES): ChFieldPrinter {
  return (field: FieldRef, params: ChParams): ChField => {
    switch (field.kind) {
      case 'column': {
        const spec = callColumnSpec(field.name);
        const type = spec === undefined ? undefined : CH_TYPE[spec.type];
        if (type === undefined) throw new Error(`unknown calls column: ${field.name}`);
        return {
          sql: `calls.${chIdentifier(field.name)}`,
          type,
          notNull: spec?.notNullWhenLive === true || CH_NOT_NULL.has(field.name),
        };
      }
      case 'json':
        if (!CALL_JSON_COLUMNS.has(field.column)) throw new Error(`unknown calls JSON column: ${field.column}`);
        if (leaves.keys.has(leafKey(field.column, field.path))) {
          return leafField(
            { leaves: `calls.${field.column}_leaves`, opaque: `calls.${field.column}_opaque` },
            field.path,
            params,
          );
        }
        return chJsonField(`calls.${field.column}`, field.path, params, true);
      case 'computed':
        return computedField(field.name);
      case 'feedback':
        if (joins === null) throw new Error('feedback fields need the feedback joins');
        return joins.field(field.feedbackType, field.path, params);
      default:
        return assertNever(field);
    }
  };
}

/** Every field an expression reads. */
export function fieldsOf(e: Expr, out: FieldRef[] = []): FieldRef[] {
  switch (e.kind) {
    case 'literal':
      return out;
    case 'field':
      out.push(e.field);
      return out;
    case 'convert':
      return fieldsOf(e.input, out);
    case 'and':
    case 'or':
      for (const i of e.items) fieldsOf(i, out);
      return out;
    case 'not':
      return fieldsOf(e.item, out);
    case 'compare':
      fieldsOf(e.left, out);
      return fieldsOf(e.right, out);
    case 'in':
      fieldsOf(e.left, out);
      for (const i of e.items) fieldsOf(i, out);
      return out;
    case 'contains':
      fieldsOf(e.input, out);
      return fieldsOf(e.substr, out);
    case 'isNull':
      return fieldsOf(e.input, out);
    case 'startsWith':
      return fieldsOf(e.input, out);
    case 'arrayHasAny':
      out.push({ kind: 'column', name: e.column, type: 'string' });
      return out;
    default:
      return assertNever(e);
  }
}

const onStart = (f: FieldRef) =>
  (f.kind === 'column' && START_COLUMNS.has(f.name)) || (f.kind === 'json' && START_COLUMNS.has(f.column));
const conjuncts = (e: Expr | null): Expr[] =>
  e === null ? [] : e.kind === 'and' ? e.items.flatMap((i) => conjuncts(i)) : [e];

const onStartOnly = (c: Expr) => fieldsOf(c).every(onStart);

/** The project, "holds a start", `extra`, and the conjuncts of `where` on start columns only: what runs before the merge. */
function startConditions(
  s: ReturnType<typeof newStatement>,
  where: Expr | null,
  extra: readonly string[] = [],
): string[] {
  const early = conjuncts(where)
    .filter(onStartOnly)
    .map((c) => printChExpr(c, s.print, s.params));
  return [`calls.project_id = ${s.projectParam}`, 'calls.has_start = 1', ...extra, ...early];
}

/** A statement in progress: its parameters and feedback joins. */
export interface ChStatement {
  readonly params: ChParams;
  readonly joins: FeedbackJoins;
  readonly print: ChFieldPrinter;
}

/** `leaves`: the dynamic fields to read from leaves (see callsFieldPrinter). */
export function newStatement(
  database: string,
  projectId: string,
  leaves: LeafReads = NO_LEAVES,
): ChStatement & { readonly projectParam: string } {
  const params = new ChParams();
  const projectParam = params.add(projectId, 'String');
  const joins = new FeedbackJoins(database, projectParam);
  return { params, joins, print: callsFieldPrinter(joins, leaves), projectParam };
}

/**
 * FROM ... WHERE of the live calls (started, not deleted, not expired) of the query's project
 * matching `where` (plus `extra` conditions on start columns), newest row per call.
 */
export function liveCallsFrom(
  database: string,
  s: ReturnType<typeof newStatement>,
  where: Expr | null,
  now: Micros,
  extra: readonly string[] = [],
): string {
  const late = conjuncts(where).filter((c) => !onStartOnly(c));
  const pre = startConditions(s, where, extra);
  const post = [liveAt(s.params.add(now, 'Int64'), 'calls'), ...late.map((c) => printChExpr(c, s.print, s.params))];
  const joins = s.joins.joins.length === 0 ? '' : ` ${s.joins.joins.join(' ')}`;
  if (joins === '')
    return `FROM ${chIdentifier(database)}.calls AS calls FINAL PREWHERE ${pre.join(' AND ')} WHERE ${post.join(' AND ')}`;
  // PREWHERE belongs to a table read: with joins, the merge is a subquery of its own (whose
  // * leaves out the MATERIALIZED live_until).
  return `FROM (SELECT *, calls.live_until AS live_until FROM ${chIdentifier(database)}.calls AS calls FINAL PREWHERE ${pre.join(' AND ')}) AS calls${joins} WHERE ${post.join(' AND ')}`;
}

const REQUIRED: ReadonlySet<CallColumn> = new Set(['id', 'project_id', 'trace_id', 'op_name', 'started_at']);

/** started_at at or after (`>=`) or at or before (`<=`) a bound: a start condition, read before the merge. */
export interface StartedBound {
  readonly op: '>=' | '<=';
  readonly at: Micros;
}

/** The columns of buildCallsSelect's rows, in order. */
export const CALLS_SELECT_COLUMNS = [...CALL_COLUMNS, 'storage_size_bytes'] as const;
const AT = Object.fromEntries(CALLS_SELECT_COLUMNS.map((c, i) => [c, i])) as Record<
  (typeof CALLS_SELECT_COLUMNS)[number],
  number
>;
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const int = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * A row of buildCallsSelect as rowBinaryRows gives it (an array in CALLS_SELECT_COLUMNS order):
 * the call, built as one object of a fixed shape (columns not selected stay NULL, as the store
 * contract says). Measured on 50,000 calls: ~6 ms, against ~55 ms filling an object key by key.
 */
export function storedCallOf(v: readonly unknown[]): StoredCall {
  return {
    project_id: String(v[AT.project_id]),
    id: String(v[AT.id]),
    trace_id: String(v[AT.trace_id]),
    parent_id: str(v[AT.parent_id]),
    thread_id: str(v[AT.thread_id]),
    turn_id: str(v[AT.turn_id]),
    op_name: String(v[AT.op_name]),
    display_name: str(v[AT.display_name]),
    started_at: Number(v[AT.started_at]),
    ended_at: int(v[AT.ended_at]),
    attributes: v[AT.attributes] as string,
    inputs: v[AT.inputs] as string,
    output: str(v[AT.output]),
    exception: str(v[AT.exception]),
    summary: str(v[AT.summary]),
    wb_user_id: str(v[AT.wb_user_id]),
    wb_run_id: str(v[AT.wb_run_id]),
    wb_run_step: int(v[AT.wb_run_step]),
    wb_run_step_end: int(v[AT.wb_run_step_end]),
    deleted_at: int(v[AT.deleted_at]),
    expire_at: int(v[AT.expire_at]),
    storage_size_bytes: int(v[AT.storage_size_bytes]),
    total_storage_size_bytes: null,
  };
}

/** The SELECT of CallStore.query: StoredCall columns (unselected ones NULL), sizes without the trace total; columns in CALLS_SELECT_COLUMNS order (storedCallOf reads them). */
export function buildCallsSelect(
  database: string,
  q: CallsQuery,
  now: Micros,
  bound: StartedBound | null = null,
  leaves: LeafReads = NO_LEAVES,
): { sql: string; params: Record<string, unknown> } {
  const wanted = q.columns === null ? null : new Set<CallColumn>(q.columns);
  const items = CALL_COLUMNS.map((c) =>
    wanted === null || wanted.has(c) || REQUIRED.has(c) ? `calls.${c} AS ${c}` : `NULL AS ${c}`,
  );
  items.push(
    q.includeStorageSize ? 'calls.start_bytes + calls.end_bytes AS storage_size_bytes' : 'NULL AS storage_size_bytes',
  );
  return buildPage(database, q, now, bound, leaves, items);
}

/** The columns of buildCallsKeys' rows, in order: a call's id, its row's version (rowVersion) and start. */
export const CALL_KEYS_COLUMNS = ['id', 'seq', 'started_at'] as const;

/** The page of buildCallsSelect as which calls it holds, in order, with their rows' versions. */
export function buildCallsKeys(
  database: string,
  q: CallsQuery,
  now: Micros,
  bound: StartedBound | null = null,
  leaves: LeafReads = NO_LEAVES,
): { sql: string; params: Record<string, unknown> } {
  return buildPage(
    database,
    q,
    now,
    bound,
    leaves,
    CALL_KEYS_COLUMNS.map((c) => `calls.${c} AS ${c}`),
  );
}

/** The columns of buildCallsByIds' rows: CALLS_SELECT_COLUMNS, then the version's. */
export const CALLS_BY_IDS_COLUMNS = [...CALLS_SELECT_COLUMNS, 'seq'] as const;

/** Every column of the live calls among `ids` that started within [from, to], storage size included. */
export function buildCallsByIds(
  database: string,
  projectId: string,
  ids: readonly string[],
  from: Micros,
  to: Micros,
  now: Micros,
): { sql: string; params: Record<string, unknown> } {
  const s = newStatement(database, projectId);
  const extra = [
    `calls.started_at >= ${s.params.add(from, 'Int64')}`,
    `calls.started_at <= ${s.params.add(to, 'Int64')}`,
    `calls.id IN (SELECT arrayJoin(${s.params.add(ids, 'Array(String)')}))`,
  ];
  const items = [
    ...CALL_COLUMNS.map((c) => `calls.${c} AS ${c}`),
    'calls.start_bytes + calls.end_bytes AS storage_size_bytes',
    'calls.seq AS seq',
  ];
  return { sql: `SELECT ${items.join(', ')} ${liveCallsFrom(database, s, null, now, extra)}`, params: s.params.values };
}

function buildPage(
  database: string,
  q: CallsQuery,
  now: Micros,
  bound: StartedBound | null,
  leaves: LeafReads,
  items: readonly string[],
): { sql: string; params: Record<string, unknown> } {
  const s = newStatement(database, q.projectId, leaves);
  const extra = bound === null ? [] : [`calls.started_at ${bound.op} ${s.params.add(bound.at, 'Int64')}`];
  // Printed before FROM, so that the feedback joins the sort needs exist when FROM is printed.
  const order = printChOrderBy(q.sort, s.print, s.params);
  const from = liveCallsFrom(database, s, q.where, now, extra);
  return {
    sql: `SELECT ${items.join(', ')} ${from}${order ? ` ${order}` : ''}${limitOffset(q, s.params)}`,
    params: s.params.values,
  };
}

/**
 * The started_at of the k-th row, newest (`desc`) or oldest first, among the rows of the
 * query's project that hold a start and meet its start conditions: read in key order without
 * the merge, so cheap. Every call the query would return lies at or beyond it, in its order,
 * once that many rows are there (duplicates and rows the other conditions drop only make the
 * window wider than needed). `within`: only rows at or beyond this start time are counted (a
 * guess; no row when fewer than k are there), which lets ClickHouse skip the parts before it.
 */
export function buildStartedWindow(
  database: string,
  q: CallsQuery,
  k: number,
  direction: 'asc' | 'desc',
  leaves: LeafReads = NO_LEAVES,
  within: Micros | null = null,
): { sql: string; params: Record<string, unknown> } {
  const s = newStatement(database, q.projectId, leaves);
  const guess =
    within === null ? [] : [`calls.started_at ${direction === 'desc' ? '>=' : '<='} ${s.params.add(within, 'Int64')}`];
  const pre = startConditions(s, q.where, guess);
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  return {
    sql: `SELECT calls.started_at AS started_at FROM ${chIdentifier(database)}.calls AS calls PREWHERE ${pre.join(' AND ')} ORDER BY calls.started_at ${dir} LIMIT 1 OFFSET ${s.params.add(k - 1, 'Int64')}`,
    params: s.params.values,
  };
}

function limitOffset(q: CallsQuery, params: ChParams): string {
  let out = '';
  if (q.limit !== null) out += ` LIMIT ${params.add(q.limit, 'Int64')}`;
  if (q.offset !== null && q.offset > 0)
    out += `${q.limit === null ? ' LIMIT 18446744073709551615' : ''} OFFSET ${params.add(q.offset, 'Int64')}`;
  return out;
}

/** How many calls the query returns (limit and offset apply), and their trace ids when asked. */
export function buildCallsMatched(
  database: string,
  q: CallsQuery,
  now: Micros,
  column: 'trace_id' | '1',
  leaves: LeafReads = NO_LEAVES,
): { sql: string; params: Record<string, unknown> } {
  const s = newStatement(database, q.projectId, leaves);
  const order = q.limit === null && q.offset === null ? '' : printChOrderBy(q.sort, s.print, s.params);
  const from = liveCallsFrom(database, s, q.where, now);
  return {
    sql: `SELECT ${column === '1' ? '1' : 'calls.trace_id'} AS m ${from}${order ? ` ${order}` : ''}${limitOffset(q, s.params)}`,
    params: s.params.values,
  };
}

/** JSON text of summary.usage ('' when absent), read without decoding summaries lacking the key. */
export const USAGE_SQL = `if(position(coalesce(calls.summary, ''), '"usage"') > 0, JSONExtractRaw(calls.summary, 'usage'), '')`;
