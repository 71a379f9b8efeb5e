// The calls view's state, all of it in the URL (?f=&sort=&roots=&errors=&op=&from=&to=), and
// how it becomes a /calls/stream_query request. Filter clauses compile to Weave's $expr.
import type { CallsQueryReq, Query } from '../api/types';

export const CLAUSE_OPS = ['contains', 'eq', 'neq', 'gt', 'lt'] as const;
export type ClauseOp = (typeof CLAUSE_OPS)[number];
export const OP_LABELS: Record<ClauseOp, string> = { contains: 'contains', eq: '=', neq: '≠', gt: '>', lt: '<' };

export interface FilterClause {
  field: string;
  op: ClauseOp;
  value: string;
}

export interface CallsSearch {
  /** Filter clauses, all of which must hold. */
  f?: FilterClause[];
  /** `<field>:<asc|desc>`; default started_at:desc. */
  sort?: string;
  /** Trace roots only (the default); false shows every call. */
  roots?: boolean;
  errors?: boolean;
  /** Op name contains. */
  op?: string;
  /** Calls started at or after (ISO 8601). */
  from?: string;
  /** Calls started before (ISO 8601). */
  to?: string;
  /** Extra columns: paths into inputs, output, attributes or summary. */
  cols?: string[];
  /** The call shown in the peek drawer. */
  peek?: string;
}

/** A column path the table may add: inside a call's JSON columns. */
export const isColumnPath = (p: string) => /^(inputs|output|attributes|summary)(\.[^.]+)*$/.test(p) && p.length <= 200;

export const SORTABLE: Record<string, string> = {
  started_at: 'Started',
  'summary.weave.latency_ms': 'Latency',
  op_name: 'Op',
  display_name: 'Name',
  'summary.weave.total_tokens': 'Tokens',
  'summary.weave.total_cost': 'Cost',
  'feedback.[*].count': 'Feedback',
};

function isClause(x: unknown): x is FilterClause {
  const c = x as FilterClause;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.field === 'string' &&
    c.field !== '' &&
    (CLAUSE_OPS as readonly string[]).includes(c.op) &&
    typeof c.value === 'string'
  );
}

/** An ISO 8601 instant from a URL param, normalised to UTC; anything else is undefined. */
export function instant(v: unknown): string | undefined {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** A window's bounds from URL params: each valid one, or neither when it ends before it starts. */
export function windowOf(raw: Record<string, unknown>): { from?: string; to?: string } {
  const from = instant(raw.from);
  const to = instant(raw.to);
  if (from && to && from >= to) return {};
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** Keeps what is valid of a URL's search params; anything else is dropped, never an error. */
export function parseCallsSearch(raw: Record<string, unknown>): CallsSearch {
  const out: CallsSearch = {};
  if (Array.isArray(raw.f)) {
    const f = raw.f.filter(isClause);
    if (f.length > 0) out.f = f;
  }
  if (typeof raw.sort === 'string' && /^.+:(asc|desc)$/.test(raw.sort)) {
    const field = raw.sort.slice(0, raw.sort.lastIndexOf(':'));
    if (field in SORTABLE || isColumnPath(field)) out.sort = raw.sort;
  }
  if (raw.roots === false || raw.roots === 0 || raw.roots === '0') out.roots = false;
  if (raw.errors === true || raw.errors === 1 || raw.errors === '1') out.errors = true;
  if (typeof raw.op === 'string' && raw.op !== '') out.op = raw.op;
  if (typeof raw.peek === 'string' && raw.peek !== '') out.peek = raw.peek;
  Object.assign(out, windowOf(raw));
  if (Array.isArray(raw.cols)) {
    const cols = [...new Set(raw.cols.filter((c): c is string => typeof c === 'string' && isColumnPath(c)))];
    if (cols.length > 0) out.cols = cols;
  }
  return out;
}

export function sortOf(search: CallsSearch): { field: string; direction: 'asc' | 'desc' } {
  const sort = search.sort ?? 'started_at:desc';
  const cut = sort.lastIndexOf(':');
  return { field: sort.slice(0, cut), direction: sort.slice(cut + 1) as 'asc' | 'desc' };
}

const field = (name: string) => ({ $getField: name });
const literal = (v: string | number) => ({ $literal: v });

function compileClause(c: FilterClause): object {
  const num = Number(c.value);
  const numeric = c.value.trim() !== '' && Number.isFinite(num);
  switch (c.op) {
    case 'contains':
      return { $contains: { input: field(c.field), substr: literal(c.value), case_insensitive: true } };
    case 'eq':
      return numeric
        ? {
            $or: [
              { $eq: [field(c.field), literal(c.value)] },
              { $eq: [{ $convert: { input: field(c.field), to: 'double' } }, literal(num)] },
            ],
          }
        : { $eq: [field(c.field), literal(c.value)] };
    case 'neq':
      return { $not: [compileClause({ ...c, op: 'eq' })] };
    case 'gt':
    case 'lt': {
      const cmp = c.op === 'gt' ? '$gt' : '$lt';
      return numeric
        ? { [cmp]: [{ $convert: { input: field(c.field), to: 'double' } }, literal(num)] }
        : { [cmp]: [field(c.field), literal(c.value)] };
    }
  }
}

/** Fields whose type is known, so a clause that cannot match them is refused with a reason. */
const FIELD_TYPES: Record<string, 'number' | 'datetime' | { oneOf: readonly string[] }> = {
  'summary.weave.latency_ms': 'number',
  started_at: 'datetime',
  ended_at: 'datetime',
  'summary.weave.status': { oneOf: ['success', 'error', 'running', 'descendant_error'] },
};

/** Why a clause can never match its field's type (a number field compared with "abc"), or null. */
export function clauseProblem(c: FilterClause): string | null {
  const type = FIELD_TYPES[c.field];
  if (type === undefined || c.op === 'contains') return null;
  const v = c.value.trim();
  if (type === 'number')
    return v !== '' && Number.isFinite(Number(v)) ? null : `${c.field} is a number: "${c.value}" is not one`;
  if (type === 'datetime')
    return /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v))
      ? null
      : `${c.field} is a time: write it as 2026-11-28 or 2026-11-28T14:30:00Z, not "${c.value}"`;
  if (c.op === 'gt' || c.op === 'lt') return `${c.field} is one of ${type.oneOf.join(', ')}: it has no order`;
  return type.oneOf.includes(v) ? null : `${c.field} is one of ${type.oneOf.join(', ')}, never "${c.value}"`;
}

/** The filter part of a calls request (the same for the rows and for query_stats). */
export function callsFilterRequest(
  projectId: string,
  search: CallsSearch,
): Pick<CallsQueryReq, 'project_id' | 'filter' | 'query'> {
  const terms: object[] = (search.f ?? []).map(compileClause);
  if (search.errors) terms.push({ $eq: [field('summary.weave.status'), literal('error')] });
  if (search.op)
    terms.push({ $contains: { input: field('op_name'), substr: literal(search.op), case_insensitive: true } });
  if (search.from) terms.push({ $gte: [field('started_at'), literal(search.from)] });
  if (search.to) terms.push({ $lt: [field('started_at'), literal(search.to)] });
  const query = terms.length === 0 ? null : ({ $expr: terms.length === 1 ? terms[0] : { $and: terms } } as Query);
  return { project_id: projectId, filter: { trace_roots_only: search.roots !== false }, query };
}
