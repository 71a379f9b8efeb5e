// What every engine must offer for calls. Engines store the start and end parts of
// a call separately or merged, as suits them; readers only ever see merged calls.
import type { Micros } from '../../time.js';
import type { CallsQuery } from '../../query/calls-query.js';

export interface CallStartPart {
  readonly project_id: string;
  readonly id: string;
  readonly trace_id: string;
  readonly parent_id: string | null;
  readonly thread_id: string | null;
  readonly turn_id: string | null;
  readonly op_name: string;
  readonly display_name: string | null;
  readonly started_at: Micros;
  /** JSON text of the attributes object. */
  readonly attributes: string;
  /** JSON text of the inputs object. */
  readonly inputs: string;
  /** Refs found among input values (weave:/// strings). */
  readonly input_refs: readonly string[];
  readonly wb_user_id: string | null;
  readonly wb_run_id: string | null;
  readonly wb_run_step: number | null;
  /** started_at + the project's time-to-live when the start was accepted; null = never expires. */
  readonly expire_at: Micros | null;
}

export interface CallEndPart {
  readonly project_id: string;
  readonly id: string;
  readonly ended_at: Micros;
  readonly exception: string | null;
  /** JSON text of the output value (may be 'null'). */
  readonly output: string;
  /** JSON text of the summary object as the client sent it. */
  readonly summary: string;
  readonly output_refs: readonly string[];
  readonly wb_run_step_end: number | null;
}

export type CallPart =
  | { readonly mode: 'start'; readonly start: CallStartPart }
  | { readonly mode: 'end'; readonly end: CallEndPart };

/** A merged call as stored. JSON columns stay JSON text so that streaming need not re-encode them. */
export interface StoredCall {
  project_id: string;
  id: string;
  trace_id: string;
  parent_id: string | null;
  thread_id: string | null;
  turn_id: string | null;
  op_name: string;
  display_name: string | null;
  started_at: Micros;
  ended_at: Micros | null;
  attributes: string;
  inputs: string;
  output: string | null;
  exception: string | null;
  summary: string | null;
  wb_user_id: string | null;
  wb_run_id: string | null;
  wb_run_step: number | null;
  wb_run_step_end: number | null;
  deleted_at: Micros | null;
  expire_at: Micros | null;
  /** Bytes of this call's stored JSON; filled only when asked for. */
  storage_size_bytes: number | null;
  /** Bytes of every call of this call's trace; filled only when asked for. */
  total_storage_size_bytes: number | null;
}

/** Which turn calls (calls whose id is their turn_id) a threads query looks at. */
export interface ThreadTurnsFilter {
  /** Only turns started after / before these instants (null: no bound). */
  readonly startedAfter: Micros | null;
  readonly startedBefore: Micros | null;
  /** Only these threads (null: every thread with a non-empty id). */
  readonly threadIds: readonly string[] | null;
}

/** The live turn calls of one thread: [id, started_at, ended_at or null]. */
export interface ThreadTurns {
  readonly thread_id: string;
  readonly turns: readonly (readonly [id: string, startedAt: Micros, endedAt: Micros | null])[];
}

/** One project's live calls (started, not deleted, not expired), counted. */
export interface CallProjectSummary {
  readonly project_id: string;
  readonly call_count: number;
  /** started_at of the project's newest live call. */
  readonly last_started_at: Micros;
}

/** Thrown by writeParts when the parts waiting to be written already exceed the write-queue bound. */
export class WriteQueueFullError extends Error {
  constructor(
    readonly queuedBytes: number,
    readonly limitBytes: number,
  ) {
    super(`the call write queue is full (${queuedBytes} bytes waiting, limit ${limitBytes})`);
    this.name = 'WriteQueueFullError';
  }
}

export interface CallStore {
  /**
   * Applies start/end parts in order in one durable write; repeats of a part are idempotent.
   * Fails with WriteQueueFullError, writing nothing, when the queue bound would be exceeded.
   */
  writeParts(parts: readonly CallPart[]): Promise<void>;
  /** Bounds the bytes of parts accepted but not yet committed (one batch is always let through). */
  limitWriteQueue(bytes: number): void;
  /** Bytes of parts accepted but not yet committed: what limitWriteQueue bounds. */
  queuedBytes(): number;
  /**
   * Hard-deletes up to `limit` calls whose expire_at is at or before `now`, with the feedback
   * attached to them, in one transaction; returns how many calls were deleted.
   */
  purgeExpired(now: Micros, limit: number): Promise<number>;
  /** Sets the display name; an unknown call is not an error. */
  updateDisplayName(projectId: string, callId: string, displayName: string): Promise<void>;
  /** One live call (started, not deleted, not expired) by id, or null. */
  get(
    projectId: string,
    callId: string,
    opts: { storageSize: boolean; totalStorageSize: boolean },
  ): Promise<StoredCall | null>;
  /** Streams the matching live calls (started, not deleted, not expired) in constant memory. */
  query(q: CallsQuery): AsyncIterable<StoredCall>;
  /** Counts what query() would return (limit applies); optionally sums storage of those calls' traces. */
  count(q: CallsQuery): Promise<{ count: number; total_storage_size_bytes: number | null }>;
  /** Soft-deletes the calls and all their descendants; returns how many were deleted. */
  delete(projectId: string, callIds: readonly string[], at: Micros): Promise<number>;
  /** The live turn calls of the project, grouped by thread (threads/stream_query aggregates them). */
  threadTurns(projectId: string, filter: ThreadTurnsFilter): Promise<ThreadTurns[]>;
  /** Bytes of the stored JSON of the project's live calls. */
  totalStorageSize(projectId: string): Promise<number>;
  /**
   * Every project having live calls (started, not deleted, not expired), in no particular order.
   * Reads every live call's index entry: one pass over all projects, not per project.
   */
  projectSummaries(): Promise<CallProjectSummary[]>;
  /**
   * One trace's live calls by start time (then id), as compact rows without payloads, in
   * chunks: what a tree of the trace needs, read far cheaper than query()'s full rows.
   */
  traceSkeleton(projectId: string, traceId: string): AsyncIterable<readonly TraceSkeletonRow[]>;
  /**
   * How many live calls match the query's project and `where` (sort, limit, offset and
   * columns are ignored) with started_at in [from, to) (null: unbounded), and the started_at
   * of the first and the last of them (null when none).
   */
  startedRange(
    q: CallsQuery,
    from: Micros | null,
    to: Micros | null,
  ): Promise<{ count: number; first: Micros | null; last: Micros | null }>;
  /**
   * The live calls matching as for startedRange with started_at in [from, to), in no
   * particular order, as compact rows in chunks: what time series over calls aggregate.
   */
  metricRows(q: CallsQuery, from: Micros, to: Micros): AsyncIterable<readonly CallMetricRow[]>;
  /**
   * The keys found in the live calls matching the query's project and `where` (sort, limit,
   * offset and columns are ignored), as paths: `inputs.<k>`, `inputs.<k>.<k2>`, `output.<k>`,
   * `output.<k>.<k2>`, `attributes.<k>` (array elements are not keys). Keys that are empty,
   * hold a dot, or are Weave's `_type`, `_class_name`, `_bases` are left out. Distinct, in
   * code-point order, at most `limit` of them.
   */
  fieldPaths(q: CallsQuery, limit: number): Promise<string[]>;
}

/**
 * started_at, ended_at (null while running), error (1 when the status is 'error': the call
 * has a non-empty exception; else 0), usage (JSON text of summary.usage; null when absent).
 */
export type CallMetricRow = readonly [startedAt: Micros, endedAt: Micros | null, error: 0 | 1, usage: string | null];

/** id, parent_id, op_name, display_name, started_at, ended_at, exception, summary (stored JSON). */
export type TraceSkeletonRow = readonly [
  id: string,
  parentId: string | null,
  opName: string,
  displayName: string | null,
  startedAt: Micros,
  endedAt: Micros | null,
  exception: string | null,
  summary: string | null,
];
