// A compiled calls query and the columns of a call: what the plan may reference and what an
// engine must print. The one catalogue of the calls' columns; each engine maps the plan's
// three types to its own (sqlite/calls/call-select.ts, clickhouse/calls/call-select.ts).
import type { Expr, FieldRef, SortTerm } from './plan.js';

/** Top-level call columns a query may select (allow-list for `columns`). */
export const CALL_COLUMNS = [
  'id',
  'project_id',
  'op_name',
  'display_name',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'started_at',
  'attributes',
  'inputs',
  'ended_at',
  'exception',
  'output',
  'summary',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'wb_run_step_end',
  'deleted_at',
  'expire_at',
] as const;
export type CallColumn = (typeof CALL_COLUMNS)[number];

/** A compiled calls query: everything an engine needs, no request shapes. */
export interface CallsQuery {
  readonly projectId: string;
  /** Conjunction of the CallsFilter constraints and the $expr query; null = everything. */
  readonly where: Expr | null;
  readonly sort: readonly SortTerm[];
  readonly limit: number | null;
  readonly offset: number | null;
  /** Columns to read; null = all. The engine may return more. */
  readonly columns: readonly CallColumn[] | null;
  readonly includeStorageSize: boolean;
  readonly includeTotalStorageSize: boolean;
}

export type ColumnType = Extract<FieldRef, { kind: 'column' }>['type'];

export interface CallColumnSpec {
  /** The type the plan compares it as. */
  readonly type: ColumnType;
  /** Never NULL on a live call: the start part sets it (or it is the key). */
  readonly notNullWhenLive: boolean;
  /** A filter or sort may name it ($getField, sort_by); the others are the engine's own. */
  readonly queryable: boolean;
}

const spec = (type: ColumnType, notNullWhenLive = false, queryable = true): CallColumnSpec => ({
  type,
  notNullWhenLive,
  queryable,
});

/** Every scalar column of a call a plan may reference, with its type. */
export const CALL_COLUMN_SPECS: Readonly<Record<string, CallColumnSpec>> = {
  id: spec('string', true),
  project_id: spec('string', true),
  trace_id: spec('string', true),
  parent_id: spec('string'),
  thread_id: spec('string'),
  turn_id: spec('string'),
  op_name: spec('string', true),
  display_name: spec('string'),
  started_at: spec('datetime', true),
  ended_at: spec('datetime'),
  exception: spec('string'),
  wb_user_id: spec('string'),
  wb_run_id: spec('string'),
  wb_run_step: spec('int'),
  wb_run_step_end: spec('int'),
  deleted_at: spec('datetime'),
  // The engine's own: the time-to-live, and the refs extracted for CallsFilter's input_refs/output_refs.
  expire_at: spec('datetime', false, false),
  input_refs: spec('string', false, false),
  output_refs: spec('string', false, false),
};

/** The spec of `name`, or undefined for a name that is no scalar column. */
export const callColumnSpec = (name: string): CallColumnSpec | undefined =>
  Object.hasOwn(CALL_COLUMN_SPECS, name) ? CALL_COLUMN_SPECS[name] : undefined;
