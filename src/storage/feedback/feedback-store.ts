// What every engine must offer for feedback. Engine-neutral: no SQL, no transactions
// assumed. Engines without transactions (ClickHouse) must keep the documented
// ordering so that a failure half-way never loses the feedback a client was told about.
import type { Micros } from '../../time.js';
import type { Expr, FieldRef, SortTerm } from '../../query/plan.js';
import type { FeedbackAnalyticsStore } from './feedback-analytics.js';

/** One stored feedback row, decoded (JSON columns parsed, time in microseconds). */
export interface FeedbackRow {
  readonly id: string;
  readonly project_id: string;
  readonly weave_ref: string;
  readonly wb_user_id: string;
  readonly creator: string | null;
  readonly created_at: Micros;
  readonly feedback_type: string;
  /** The processed payload (reactions carry alias, detoned, detoned_alias). */
  readonly payload: Record<string, unknown>;
  readonly annotation_ref: string | null;
  readonly runnable_ref: string | null;
  readonly call_ref: string | null;
  readonly trigger_ref: string | null;
  readonly queue_id: string | null;
  readonly scorer_tags: readonly string[];
  readonly scorer_tag_reasons: Readonly<Record<string, string>>;
  readonly scorer_tag_confidences: Readonly<Record<string, number>>;
  readonly scorer_ratings: Readonly<Record<string, number>>;
  readonly scorer_rating_reasons: Readonly<Record<string, string>>;
  readonly scorer_rating_confidences: Readonly<Record<string, number>>;
  readonly span_agent_name: string;
  readonly span_agent_version: string;
  readonly span_status_code: string;
  readonly scorer_trace_id: string;
  readonly span_trace_id: string;
  readonly span_conversation_id: string;
}

export type FeedbackColumn = keyof FeedbackRow;

/** One output key of a query row and the field it reads. */
export interface FeedbackSelection {
  /** The key in the result row: the name the client asked for (e.g. "payload.note"). */
  readonly key: string;
  /** A column (decoded as in FeedbackRow) or a JSON path (JSON_VALUE text). */
  readonly field: FieldRef;
}

export interface FeedbackQuery {
  readonly projectId: string;
  readonly select: readonly FeedbackSelection[];
  readonly where: Expr | null;
  /** Empty = insertion order. */
  readonly sort: readonly SortTerm[];
  readonly limit: number | null;
  readonly offset: number | null;
}

/** Reads, writes and the analytics reads (storage/feedback/feedback-analytics.ts). */
export interface FeedbackStore extends FeedbackAnalyticsStore {
  /**
   * Writes the rows durably, all or none. A row whose (project_id, id) already exists
   * replaces it (a retried request with a client-chosen id is idempotent).
   */
  insert(rows: readonly FeedbackRow[]): Promise<void>;
  /**
   * Removes the row `feedbackId` of the project (absent: not an error) and writes `row`.
   * Transactional engines do both atomically; others write `row` first, then delete
   * `feedbackId` unless it equals row.id, so a failure leaves a duplicate, never a loss.
   */
  replace(projectId: string, feedbackId: string, row: FeedbackRow): Promise<void>;
  /** Hard-deletes the rows with these ids in the project; returns how many existed. */
  purge(projectId: string, ids: readonly string[]): Promise<number>;
  /** Rows of the project with exactly the selected keys, in sort order (else insertion order). */
  query(q: FeedbackQuery): Promise<Record<string, unknown>[]>;
  /** How many rows of the project match `where` (limit, offset and select do not apply). */
  count(projectId: string, where: Expr | null): Promise<number>;
  /** Every row of the project whose weave_ref is one of `weaveRefs`, in insertion order. */
  findByWeaveRefs(projectId: string, weaveRefs: readonly string[]): Promise<FeedbackRow[]>;
}
