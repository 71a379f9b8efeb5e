// Rows of the ClickHouse calls table and how they merge. A row holds everything its writer
// knew of a call; parts, renames and deletions are rows too (pseudo rows, never stored on
// their own), so one function answers "what is this call now" from any set of them:
//  - the start fields come from the newest row holding a start, except started_at, expire_at
//    and a start's display_name, which the first start fixes (the sort key must not move, and
//    a re-sent start after a change of the project's time-to-live keeps its expiry, as on SQLite);
//  - the end fields come from the newest row holding an end;
//  - a name set by /call/update (named rows) wins over the start's, the newest such one;
//  - the first deletion stays.
import type { CallEndPart, CallStartPart, StoredCall } from '../../calls/call-store.js';
import { jsonLeaves } from './json-leaves.js';

/** A stored row: the call's columns plus what the merge needs (refs as JSON text, part sizes, flags). */
export type ChCallRow = Omit<StoredCall, 'storage_size_bytes' | 'total_storage_size_bytes'> & {
  input_refs: string;
  output_refs: string;
  start_bytes: number;
  end_bytes: number;
  has_start: 0 | 1;
  has_end: 0 | 1;
  named: 0 | 1;
  seq: number;
  /** The inputs' leaves and opaque paths (clickhouse/calls/json-leaves.ts); empty in rows without a start. */
  inputs_leaves: string;
  inputs_opaque: string[];
};

/** Every column of a stored row, in the table's order. */
export const CALL_ROW_COLUMNS = [
  'project_id',
  'id',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'op_name',
  'display_name',
  'started_at',
  'ended_at',
  'attributes',
  'inputs',
  'output',
  'exception',
  'summary',
  'input_refs',
  'output_refs',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'wb_run_step_end',
  'deleted_at',
  'expire_at',
  'start_bytes',
  'end_bytes',
  'has_start',
  'has_end',
  'named',
  'seq',
  'inputs_leaves',
  'inputs_opaque',
] as const satisfies readonly (keyof ChCallRow)[];

const START_FIELDS = [
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'op_name',
  'attributes',
  'inputs',
  'inputs_leaves',
  'inputs_opaque',
  'input_refs',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'start_bytes',
] as const;
const END_FIELDS = [
  'ended_at',
  'exception',
  'output',
  'summary',
  'output_refs',
  'wb_run_step_end',
  'end_bytes',
] as const;

/** Integer columns: 64-bit values arrive from ClickHouse as strings. */
const INTEGER_COLUMNS = [
  'started_at',
  'ended_at',
  'wb_run_step',
  'wb_run_step_end',
  'deleted_at',
  'expire_at',
  'start_bytes',
  'end_bytes',
  'has_start',
  'has_end',
  'named',
  'seq',
] as const;

/** A row as read (JSONEachRow, 64-bit integers quoted), with its integers as numbers. */
export function decodeCallRow(raw: Record<string, unknown>): ChCallRow {
  const row = raw as Record<string, unknown>;
  for (const c of INTEGER_COLUMNS) if (row[c] !== null && row[c] !== undefined) row[c] = Number(row[c]);
  return row as unknown as ChCallRow;
}

function emptyRow(projectId: string, id: string): ChCallRow {
  return {
    project_id: projectId,
    id,
    trace_id: '',
    parent_id: null,
    thread_id: null,
    turn_id: null,
    op_name: '',
    display_name: null,
    started_at: 0,
    ended_at: null,
    attributes: '{}',
    inputs: '{}',
    output: null,
    exception: null,
    summary: null,
    input_refs: '[]',
    output_refs: '[]',
    wb_user_id: null,
    wb_run_id: null,
    wb_run_step: null,
    wb_run_step_end: null,
    deleted_at: null,
    expire_at: null,
    start_bytes: 0,
    end_bytes: 0,
    has_start: 0,
    has_end: 0,
    named: 0,
    seq: 0,
    inputs_leaves: '',
    inputs_opaque: [],
  };
}

/** Stored size of a part's JSON: what storage_size_bytes reports (as on SQLite). */
const startBytes = (s: CallStartPart): number =>
  Buffer.byteLength(s.attributes) + Buffer.byteLength(s.inputs) + s.op_name.length + (s.display_name?.length ?? 0) + 96;
const endBytes = (e: CallEndPart): number =>
  Buffer.byteLength(e.output) + Buffer.byteLength(e.summary) + (e.exception ? Buffer.byteLength(e.exception) : 0) + 32;

export function startRow(s: CallStartPart, seq: number): ChCallRow {
  const leaves = jsonLeaves(s.inputs);
  return {
    ...emptyRow(s.project_id, s.id),
    trace_id: s.trace_id,
    parent_id: s.parent_id,
    thread_id: s.thread_id,
    turn_id: s.turn_id,
    op_name: s.op_name,
    display_name: s.display_name,
    started_at: s.started_at,
    attributes: s.attributes,
    inputs: s.inputs,
    inputs_leaves: leaves.leaves,
    inputs_opaque: leaves.opaque,
    input_refs: JSON.stringify(s.input_refs),
    wb_user_id: s.wb_user_id,
    wb_run_id: s.wb_run_id,
    wb_run_step: s.wb_run_step,
    expire_at: s.expire_at,
    start_bytes: startBytes(s),
    has_start: 1,
    seq,
  };
}

export function endRow(e: CallEndPart, seq: number): ChCallRow {
  return {
    ...emptyRow(e.project_id, e.id),
    ended_at: e.ended_at,
    exception: e.exception,
    output: e.output,
    summary: e.summary,
    output_refs: JSON.stringify(e.output_refs),
    wb_run_step_end: e.wb_run_step_end,
    end_bytes: endBytes(e),
    has_end: 1,
    seq,
  };
}

export const renameRow = (projectId: string, id: string, displayName: string, seq: number): ChCallRow => ({
  ...emptyRow(projectId, id),
  display_name: displayName,
  named: 1,
  seq,
});

export const deletionRow = (projectId: string, id: string, at: number, seq: number): ChCallRow => ({
  ...emptyRow(projectId, id),
  deleted_at: at,
  seq,
});

/** What the rows of one call say together (see the file comment); `seq` is the new row's. */
export function mergeCallRows(rows: readonly ChCallRow[], seq: number): ChCallRow {
  const ordered = [...rows].sort((a, b) => a.seq - b.seq);
  const first = ordered[0]!;
  const out = emptyRow(first.project_id, first.id);
  const starts = ordered.filter((r) => r.has_start === 1);
  const newestStart = starts.at(-1);
  if (newestStart !== undefined) {
    const firstStart = starts[0]!;
    for (const f of START_FIELDS) (out as unknown as Record<string, unknown>)[f] = newestStart[f];
    out.started_at = firstStart.started_at;
    out.expire_at = firstStart.expire_at;
    out.display_name = starts.find((r) => r.display_name !== null)?.display_name ?? null;
    out.has_start = 1;
  }
  const newestEnd = ordered.filter((r) => r.has_end === 1).at(-1);
  if (newestEnd !== undefined) {
    for (const f of END_FIELDS) (out as unknown as Record<string, unknown>)[f] = newestEnd[f];
    out.has_end = 1;
  }
  const named = ordered.filter((r) => r.named === 1).at(-1);
  if (named !== undefined) {
    out.display_name = named.display_name;
    out.named = 1;
  }
  out.deleted_at = ordered.find((r) => r.deleted_at !== null)?.deleted_at ?? null;
  out.seq = seq;
  return out;
}

/** Whether `row` already says all that `merged` says (then no healing row is needed). */
export function sameState(
  row: Pick<ChCallRow, 'has_start' | 'has_end' | 'named' | 'deleted_at'>,
  merged: ChCallRow,
): boolean {
  return (
    row.has_start === merged.has_start &&
    row.has_end === merged.has_end &&
    row.named === merged.named &&
    (row.deleted_at === null) === (merged.deleted_at === null)
  );
}
