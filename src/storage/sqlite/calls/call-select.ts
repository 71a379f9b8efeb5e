// The SQL that reads calls on SQLite: the SELECT behind CallStore.query and the COUNT
// behind CallStore.count, both printed from a compiled CallsQuery. Only live calls are
// visible (started, not deleted, not expired: `now` is a bound parameter). Field printing for calls lives here: the columns, the
// derived summary.weave fields, and fields of the feedback attached to a call.
import { CALL_COLUMNS, type CallColumn, type CallsQuery, callColumnSpec } from '../../../query/calls-query.js';
import { assertNever, type FieldRef } from '../../../query/plan.js';
import { nowMicros, type Micros } from '../../../time.js';
import { CALL_JSON_COLUMNS } from '../../../query/calls-fields.js';
import {
  joinSql,
  param,
  printSqliteExpr,
  printSqliteOrderBy,
  sql,
  sqlIdentifier,
  sqliteJsonField,
  sqliteJsonExists,
  sqliteJsonValue,
  type FieldPrinter,
  type FieldSql,
  type SqlFragment,
} from '../engine/dialect.js';
import { callKeyOf, callKeyTests, idKeyIn, keyParams } from './call-keys.js';

/** The plan's column types as SQLite stores them (the catalogue: query/calls-query.ts). */
const SQLITE_TYPE = { string: 'text', int: 'integer', datetime: 'integer' } as const;

const raw = (text: string): SqlFragment => ({ sql: text, params: [] });
const col = (name: string) => raw(`calls.${name}`);

/** Started, not deleted, not expired; the one parameter is now (microseconds). */
const LIVE =
  'calls.started_at IS NOT NULL AND calls.deleted_at IS NULL AND (calls.expire_at IS NULL OR calls.expire_at > ?)';
const live = (now: Micros): SqlFragment => ({ sql: LIVE, params: param(now).params });

/**
 * status as make_derived_summary_fields derives it: 'error' if exception is non-empty,
 * else 'running' while not ended, else 'descendant_error' if summary.status_counts.error > 0,
 * else 'success'.
 */
const STATUS_SQL = `CASE WHEN COALESCE(calls.exception, '') <> '' THEN 'error' WHEN calls.ended_at IS NULL THEN 'running' WHEN COALESCE(json_type(calls.summary, '$.status_counts.error') IN ('integer', 'real') AND json_extract(calls.summary, '$.status_counts.error') > 0, 0) THEN 'descendant_error' ELSE 'success' END`;

/** Whole milliseconds between start and end (floor), NULL while running. */
const LATENCY_SQL = `CASE WHEN calls.ended_at IS NOT NULL THEN CAST(floor((calls.ended_at - calls.started_at) / 1000.0) AS INTEGER) END`;

/** `x` minus everything up to and including its first `/`. */
const afterSlash = (x: string) => `substr(${x}, instr(${x}, '/') + 1)`;
/** `weave:///<entity>/<project>/op/<name>:<digest>` -> `op/<name>:<digest>` (other strings: garbage, guarded). */
const OP_TAIL = afterSlash(afterSlash(`substr(calls.op_name, 10)`));

/** display_name when non-empty, else the name inside an op ref, else op_name as stored. */
const TRACE_NAME_SQL = `CASE WHEN COALESCE(calls.display_name, '') <> '' THEN calls.display_name WHEN substr(calls.op_name, 1, 9) = 'weave:///' AND substr(${OP_TAIL}, 1, 3) = 'op/' AND instr(${OP_TAIL}, ':') > 4 THEN substr(${OP_TAIL}, 4, instr(${OP_TAIL}, ':') - 4) ELSE calls.op_name END`;

function computedField(name: string): FieldSql {
  switch (name) {
    case 'status':
      return { ...raw(STATUS_SQL), type: 'text' };
    case 'latency_ms':
      return { ...raw(LATENCY_SQL), type: 'integer' };
    case 'trace_name':
      return { ...raw(TRACE_NAME_SQL), type: 'text' };
    default:
      throw new Error(`unknown computed calls field: ${name}`);
  }
}

/**
 * A field of the feedback attached to the call (rows with weave_ref = the call's ref),
 * optionally of one feedback_type. The value is that of the most recent such row,
 * preferring rows where the field is present; NULL when the call has no such feedback.
 * `count` is how many such rows there are (0 when none).
 */
function feedbackField(feedbackType: string | null, path: readonly string[]): FieldSql {
  const [head, ...rest] = path;
  const ofType = feedbackType === null ? raw('') : sql` AND fb.feedback_type = ${param(feedbackType)}`;
  const pick = (value: SqlFragment, present: SqlFragment): SqlFragment =>
    sql`(SELECT ${value} FROM feedback AS fb WHERE fb.project_id = calls.project_id AND fb.weave_ref = 'weave:///' || calls.project_id || '/call/' || calls.id${ofType} ORDER BY ${present} DESC, fb.created_at DESC, fb.id DESC LIMIT 1)`;
  if (head === 'payload') {
    const present = sqliteJsonExists('fb.payload', rest);
    // COALESCE: a call without such feedback has the field absent (a condition is never NULL).
    const exists = sql`COALESCE(${pick(present, present)}, 0)`;
    return { ...pick(sqliteJsonValue('fb.payload', rest), present), exists, type: 'text' };
  }
  if (head === 'count') {
    const n = sql`(SELECT COUNT(*) FROM feedback AS fb WHERE fb.project_id = calls.project_id AND fb.weave_ref = 'weave:///' || calls.project_id || '/call/' || calls.id${ofType})`;
    return { ...n, type: 'integer', notNull: true };
  }
  if (head === 'runnable_ref' || head === 'call_ref' || head === 'trigger_ref') {
    const ref = sqlIdentifier(`fb.${head}`);
    return { ...pick(ref, sql`(${ref} IS NOT NULL)`), type: 'text' };
  }
  throw new Error(`unknown feedback field: ${path.join('.')}`);
}

/** The FieldPrinter of the calls table (outer query alias: `calls`). */
export const printCallsField: FieldPrinter = (field: FieldRef): FieldSql => {
  switch (field.kind) {
    case 'column': {
      const spec = callColumnSpec(field.name);
      const type = spec === undefined ? undefined : SQLITE_TYPE[spec.type];
      if (type === undefined) throw new Error(`unknown calls column: ${field.name}`);
      return { ...col(field.name), type, notNull: spec?.notNullWhenLive === true };
    }
    case 'json':
      if (!CALL_JSON_COLUMNS.has(field.column)) throw new Error(`unknown calls JSON column: ${field.column}`);
      return sqliteJsonField(`calls.${field.column}`, field.path);
    case 'computed':
      return computedField(field.name);
    case 'feedback':
      return feedbackField(field.feedbackType, field.path);
    default:
      return assertNever(field);
  }
};

/**
 * Bytes of every live call of the same trace as the outer `calls` row, on trace roots only
 * (null on the other calls, as in Weave); one parameter: now.
 */
const TRACE_BYTES = `CASE WHEN calls.parent_id IS NULL THEN (SELECT SUM(t.start_bytes + t.end_bytes) FROM calls AS t WHERE t.trace_key = calls.trace_key AND +t.project_id = calls.project_id AND t.trace_id = calls.trace_id AND t.started_at IS NOT NULL AND t.deleted_at IS NULL AND (t.expire_at IS NULL OR t.expire_at > ?)) END`;

const REQUIRED: ReadonlySet<CallColumn> = new Set(['id', 'project_id', 'trace_id', 'op_name', 'started_at']);

function selectList(q: CallsQuery, now: Micros): SqlFragment {
  const wanted = q.columns === null ? null : new Set<CallColumn>(q.columns);
  const items = CALL_COLUMNS.map((c) =>
    wanted === null || wanted.has(c) || REQUIRED.has(c) ? `calls.${c}` : `NULL AS ${c}`,
  );
  items.push(
    q.includeStorageSize ? 'calls.start_bytes + calls.end_bytes AS storage_size_bytes' : 'NULL AS storage_size_bytes',
  );
  items.push(
    q.includeTotalStorageSize ? `${TRACE_BYTES} AS total_storage_size_bytes` : 'NULL AS total_storage_size_bytes',
  );
  return { sql: items.join(', '), params: q.includeTotalStorageSize ? param(now).params : [] };
}

/**
 * `FROM calls WHERE` the project's live calls matching `where`: the one way in for the
 * select, the count and the metrics. When `where` pins ids, trace ids or parent ids, the key
 * tests make their indexes the way in, and `+` keeps the project-leading indexes out of it.
 */
export function fromLiveCalls(q: CallsQuery, now: Micros): SqlFragment {
  const where = q.where === null ? raw('') : sql` AND ${printSqliteExpr(q.where, printCallsField)}`;
  const keys = callKeyTests(q.where);
  const project = keys.length === 0 ? raw('calls.project_id') : raw('+calls.project_id');
  const keyed = keys.length === 0 ? raw('') : sql`${joinSql(keys, ' AND ')} AND `;
  return sql`FROM calls WHERE ${keyed}${project} = ${param(q.projectId)} AND ${live(now)}${where}`;
}

/** LIMIT / OFFSET (SQLite needs a LIMIT before an OFFSET: -1 means none). */
function limitOffset(q: CallsQuery): SqlFragment {
  if (q.limit === null && q.offset === null) return raw('');
  const limit = sql` LIMIT ${param(q.limit ?? -1)}`;
  return q.offset === null ? limit : sql`${limit} OFFSET ${param(q.offset)}`;
}

/**
 * The calls of the query, as StoredCall rows (same column names). Unselected columns
 * come back NULL, including JSON ones (the service renders those as `{}`).
 */
export function buildCallsSelect(q: CallsQuery, now: Micros = nowMicros()): SqlFragment {
  const order = printSqliteOrderBy(q.sort, printCallsField);
  const orderBy = order.sql === '' ? raw('') : sql` ${order}`;
  return sql`SELECT ${selectList(q, now)} ${fromLiveCalls(q, now)}${orderBy}${limitOffset(q)}`;
}

/**
 * One live call by primary key (a point read), as SQL text to prepare once, and the
 * function that orders a read's values (the project, the id, now) as its parameters.
 */
export function buildCallByIdSelect(
  includeStorageSize: boolean,
  includeTotalStorageSize: boolean,
): {
  sql: string;
  args: (projectId: string, callId: string, now: Micros) => unknown[];
} {
  const q: CallsQuery = {
    projectId: '',
    where: null,
    sort: [],
    limit: null,
    offset: null,
    columns: null,
    includeStorageSize,
    includeTotalStorageSize,
  };
  return {
    sql: `SELECT ${selectList(q, 0).sql} FROM calls WHERE ${idKeyIn('calls', [callKeyOf('?')])} AND +calls.project_id = ? AND calls.id = ? AND ${LIVE}`,
    args: (projectId, callId, now) => [
      ...selectList(q, now).params,
      ...keyParams(callId),
      projectId,
      callId,
      ...live(now).params,
    ],
  };
}

/**
 * One row `{count, total_storage_size_bytes}`: how many calls the query returns (limit
 * and offset apply) and, when asked, the bytes of all live calls of the traces those
 * calls belong to (each trace counted once; 0 when nothing matched), else NULL.
 */
export function buildCallsCount(q: CallsQuery, now: Micros = nowMicros()): SqlFragment {
  const order = q.limit === null && q.offset === null ? raw('') : printSqliteOrderBy(q.sort, printCallsField);
  const orderBy = order.sql === '' ? raw('') : sql` ${order}`;
  const matched = sql`SELECT calls.trace_id, calls.trace_key ${fromLiveCalls(q, now)}${orderBy}${limitOffset(q)}`;
  const total = q.includeTotalStorageSize
    ? sql`(SELECT COALESCE(SUM(t.start_bytes + t.end_bytes), 0) FROM calls AS t WHERE t.trace_key IN (SELECT trace_key FROM matched) AND +t.project_id = ${param(q.projectId)} AND t.started_at IS NOT NULL AND t.deleted_at IS NULL AND (t.expire_at IS NULL OR t.expire_at > ${param(now)}) AND t.trace_id IN (SELECT trace_id FROM matched))`
    : raw('NULL');
  return sql`WITH matched AS (${matched}) SELECT (SELECT COUNT(*) FROM matched) AS count, ${total} AS total_storage_size_bytes`;
}
