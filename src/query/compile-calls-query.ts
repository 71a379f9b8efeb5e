// Compiles a calls query request (stream_query, query, query_stats, read) into the
// engine-neutral CallsQuery: CallsFilter (§3.6.1) and `$expr` (§3.6.2) become one
// `where` plan, sort_by (§3.6.4) becomes sort terms, `columns` (§3.6.5) the column set.
import type { CallsFilter } from '../api/calls.js';
import type { SortBy } from '../api/common.js';
import { InvalidFieldError } from '../api/errors.js';
import type { Query } from '../api/query.js';
import { CALL_COLUMNS, type CallColumn, type CallsQuery } from './calls-query.js';
import { callsFieldCatalog } from './calls-fields.js';
import { compileQuery } from './compile-query.js';
import type { Expr, FieldRef, SortTerm } from './plan.js';

/** The request fields that shape a calls query; every request model carrying them fits. */
export interface CallsQueryInput {
  readonly project_id: string;
  readonly filter?: CallsFilter | null;
  readonly query?: Query | null;
  readonly sort_by?: readonly SortBy[] | null;
  readonly limit?: number | null;
  readonly offset?: number | null;
  readonly columns?: readonly string[] | null;
  readonly include_costs?: boolean | null;
  readonly include_storage_size?: boolean | null;
  readonly include_total_storage_size?: boolean | null;
}

const REQUIRED_COLUMNS: readonly CallColumn[] = ['id', 'project_id', 'trace_id', 'op_name', 'started_at'];
/** Deriving summary.weave (status, latency, trace_name) and costs needs these. */
const SUMMARY_COLUMNS: readonly CallColumn[] = ['ended_at', 'exception', 'display_name'];
/** Accepted in `columns` but governed by include_* flags, so they select nothing here. */
const FLAG_COLUMNS: ReadonlySet<string> = new Set(['storage_size_bytes', 'total_storage_size_bytes', 'wb_username']);

const ID_FILTERS = [
  ['parent_ids', 'parent_id'],
  ['trace_ids', 'trace_id'],
  ['call_ids', 'id'],
  ['thread_ids', 'thread_id'],
  ['turn_ids', 'turn_id'],
  ['wb_user_ids', 'wb_user_id'],
  ['wb_run_ids', 'wb_run_id'],
] as const satisfies readonly (readonly [keyof CallsFilter, string])[];

/** Default order: oldest first; `id` makes ties (same microsecond) deterministic for paging. */
const DEFAULT_SORT: readonly SortBy[] = [{ field: 'started_at', direction: 'asc' }];
const ID_FIELD: FieldRef = { kind: 'column', name: 'id', type: 'string' };

export function compileCallsQuery(req: CallsQueryInput): CallsQuery {
  const where = [...filterExprs(req.filter ?? null, req.project_id)];
  if (req.query) where.push(compileQuery(req.query, callsFieldCatalog));
  return {
    projectId: req.project_id,
    where: where.length === 0 ? null : where.length === 1 ? where[0]! : { kind: 'and', items: where },
    sort: compileSort(req.sort_by ?? null),
    limit: req.limit ?? null,
    offset: req.offset ?? null,
    columns: compileColumns(req.columns ?? null, req.include_costs === true),
    includeStorageSize: req.include_storage_size === true,
    includeTotalStorageSize: req.include_total_storage_size === true,
  };
}

const field = (name: string): Expr => ({ kind: 'field', field: callsFieldCatalog.resolve(name) });

/**
 * Each constraint of the filter (AND-ed by the caller). Its lists hold at most
 * MAX_FILTER_LENGTH entries (Weave's bound, checked by the request schema: api/limits.ts).
 * An empty list is no constraint, as in Weave's servers, but for thread_ids. A wb_run_id without "/" is a bare
 * run id of this project: it matches both itself and `<entity>/<project>/<run id>`, the form
 * the Python SDK stores.
 */
function* filterExprs(filter: CallsFilter | null, projectId: string): Generator<Expr> {
  if (!filter) return;
  if (filter.op_names?.length) {
    yield opNamesExpr(filter.op_names);
  }
  for (const name of ['input_refs', 'output_refs'] as const) {
    const refs = filter[name];
    if (!refs?.length) continue;
    const { exact, prefixes } = splitWildcards(refs);
    yield { kind: 'arrayHasAny', column: name, values: exact, prefixes };
  }
  for (const [name, column] of ID_FILTERS) {
    let ids = filter[name];
    // thread_ids: [] asks for the calls of no thread, so none match (Weave's servers agree:
    // test_calls_query_stats_thread_ids_filter_not_minimal); every other empty list is no constraint.
    if (ids === undefined || ids === null || (ids.length === 0 && name !== 'thread_ids')) continue;
    if (name === 'wb_run_ids') ids = ids.flatMap((id) => (id.includes('/') ? [id] : [id, `${projectId}/${id}`]));
    yield { kind: 'in', left: field(column), items: ids.map((v) => ({ kind: 'literal', value: v })) };
  }
  if (filter.trace_roots_only === true) yield { kind: 'isNull', input: field('parent_id') };
}

/** `name:*` means any version of `name`: a prefix match on `name:`. */
function splitWildcards(list: readonly string[]): { exact: string[]; prefixes: string[] } {
  const exact: string[] = [];
  const prefixes: string[] = [];
  for (const s of list) {
    if (s.endsWith(':*')) prefixes.push(s.slice(0, -1));
    else exact.push(s);
  }
  return { exact, prefixes };
}

function opNamesExpr(names: readonly string[]): Expr {
  const { exact, prefixes } = splitWildcards(names);
  const opName = field('op_name');
  const items: Expr[] = prefixes.map((prefix) => ({ kind: 'startsWith', input: opName, prefix }));
  if (exact.length > 0)
    items.unshift({ kind: 'in', left: opName, items: exact.map((v) => ({ kind: 'literal', value: v })) });
  return items.length === 1 ? items[0]! : { kind: 'or', items };
}

/**
 * null -> started_at asc; [] -> no order at all (cheapest, e.g. for counting). Any
 * non-empty order gets an `id` tiebreak unless it already sorts by id, so that offset
 * paging never repeats or skips rows that tie. The tiebreak runs in the direction of the
 * last term, so an index on (..., started_at, id) serves the order in either direction.
 */
function compileSort(sortBy: readonly SortBy[] | null): SortTerm[] {
  const terms = (sortBy ?? DEFAULT_SORT).map(
    (s, i): SortTerm => ({ field: resolveSortField(s.field, i), direction: s.direction }),
  );
  if (terms.length > 0 && !terms.some((t) => t.field.kind === 'column' && t.field.name === 'id')) {
    terms.push({ field: ID_FIELD, direction: terms[terms.length - 1]!.direction });
  }
  return terms;
}

/** The catalog's InvalidFieldError, located at the offending sort_by entry. */
function resolveSortField(name: string, index: number): FieldRef {
  try {
    return callsFieldCatalog.resolve(name);
  } catch (e) {
    if (e instanceof InvalidFieldError) throw new InvalidFieldError(e.message, ['body', 'sort_by', index, 'field']);
    throw e;
  }
}

const CALL_COLUMN_SET: ReadonlySet<string> = new Set(CALL_COLUMNS);
const isCallColumn = (name: string): name is CallColumn => CALL_COLUMN_SET.has(name);

/** Top-level names only (`inputs.x` selects `inputs`), in CALL_COLUMNS order, required ones added. */
function compileColumns(columns: readonly string[] | null, includeCosts: boolean): CallColumn[] | null {
  if (columns === null) return null;
  const wanted = new Set<CallColumn>(REQUIRED_COLUMNS);
  columns.forEach((name, i) => {
    const top = name.split('.', 1)[0]!;
    if (isCallColumn(top)) wanted.add(top);
    else if (!FLAG_COLUMNS.has(top)) throw new InvalidFieldError(`Invalid column: ${name}`, ['body', 'columns', i]);
  });
  // Costs are priced from summary.usage and answered under summary.weave.costs: include_costs
  // brings the summary along whatever columns asked for (as Weave does).
  if (includeCosts) wanted.add('summary');
  if (wanted.has('summary')) for (const c of SUMMARY_COLUMNS) wanted.add(c);
  return CALL_COLUMNS.filter((c) => wanted.has(c));
}
