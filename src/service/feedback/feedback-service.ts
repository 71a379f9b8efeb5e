// Feedback operations above storage: validation, payload processing, row building,
// query planning and result shaping. Takes parsed request types (validated at the
// edge) and the caller's server-decided user id; never trusts a client wb_user_id.
import { InvalidRequestError } from '../../api/errors.js';
import type {
  FeedbackCreateReq,
  FeedbackCreateRes,
  FeedbackPurgeReq,
  FeedbackQueryReq,
  FeedbackReplaceReq,
} from '../../api/feedback.js';
import type { FeedbackAggregateReq, FeedbackPayloadSchemaReq, FeedbackStatsReq } from '../../api/feedback-analytics.js';
import type { FeedbackRow, FeedbackSelection, FeedbackStore } from '../../storage/feedback/feedback-store.js';
import { FEEDBACK_COLUMNS, feedbackFields } from '../../query/feedback-fields.js';
import { compileQuery } from '../../query/compile-query.js';
import { uuidv7 } from '../json/ids.js';
import { formatTimestamp, nowMicros, type Micros } from '../../time.js';
import { processFeedbackPayload, validateFeedbackCreate } from './feedback-validate.js';
import { purgeIdsFromExpr } from './feedback-purge.js';
import { feedbackStats } from './feedback-stats.js';
import { feedbackAggregate } from './feedback-aggregate.js';
import { feedbackPayloadSchema } from './feedback-payload-schema.js';

export interface FeedbackService {
  create(req: FeedbackCreateReq, userId: string): Promise<FeedbackCreateRes>;
  /** Validates every item first; then writes all of them or none. */
  createBatch(reqs: readonly FeedbackCreateReq[], userId: string): Promise<FeedbackCreateRes[]>;
  /** The rows, and how many rows match the query whatever the limit (Weave's total_count). */
  query(req: FeedbackQueryReq): Promise<{ result: Record<string, unknown>[]; total_count: number }>;
  purge(req: FeedbackPurgeReq): Promise<void>;
  /** Validates the new feedback, then atomically drops `feedback_id` and writes a new row. */
  replace(req: FeedbackReplaceReq, userId: string): Promise<FeedbackCreateRes>;
  /** /feedback/stats: payload values per time bucket and over the window (feedback-stats.ts). */
  stats(req: FeedbackStatsReq): ReturnType<typeof feedbackStats>;
  /** /feedback/aggregate: scorer tags and ratings per bucket and group (feedback-aggregate.ts). */
  aggregate(req: FeedbackAggregateReq): ReturnType<typeof feedbackAggregate>;
  /** /feedback/payload_schema: the typed paths of recent payloads (feedback-payload-schema.ts). */
  payloadSchema(req: FeedbackPayloadSchemaReq): ReturnType<typeof feedbackPayloadSchema>;
}

export interface FeedbackServiceOptions {
  readonly now?: () => Micros;
  readonly newId?: () => string;
  /**
   * Completes validated rows before they are written (agent refs: service/agents/agent-feedback.ts);
   * may read other resources, never rejects a row. Default: rows as built.
   */
  readonly complete?: (rows: readonly FeedbackRow[]) => Promise<FeedbackRow[]>;
}

const DEFAULT_SPAN_AGENT_NAME = '';
const DEFAULT_SPAN_AGENT_VERSION = '';
const DEFAULT_SPAN_STATUS_CODE = 'UNSET';

/** The row for a validated request. Absent and null optional fields get their defaults. */
export function toFeedbackRow(
  req: FeedbackCreateReq,
  payload: Record<string, unknown>,
  userId: string,
  createdAt: Micros,
  newId: () => string,
): FeedbackRow {
  return {
    id: req.id || newId(),
    project_id: req.project_id,
    weave_ref: req.weave_ref,
    wb_user_id: userId,
    creator: req.creator ?? null,
    created_at: createdAt,
    feedback_type: req.feedback_type,
    payload,
    annotation_ref: req.annotation_ref ?? null,
    runnable_ref: req.runnable_ref ?? null,
    call_ref: req.call_ref ?? null,
    trigger_ref: req.trigger_ref ?? null,
    queue_id: req.queue_id ?? null,
    scorer_tags: req.scorer_tags ?? [],
    scorer_tag_reasons: req.scorer_tag_reasons ?? {},
    scorer_tag_confidences: req.scorer_tag_confidences ?? {},
    scorer_ratings: req.scorer_ratings ?? {},
    scorer_rating_reasons: req.scorer_rating_reasons ?? {},
    scorer_rating_confidences: req.scorer_rating_confidences ?? {},
    span_agent_name: req.span_agent_name ?? DEFAULT_SPAN_AGENT_NAME,
    span_agent_version: req.span_agent_version ?? DEFAULT_SPAN_AGENT_VERSION,
    span_status_code: req.span_status_code ?? DEFAULT_SPAN_STATUS_CODE,
    scorer_trace_id: req.scorer_trace_id ?? '',
    span_trace_id: req.span_trace_id ?? '',
    span_conversation_id: req.span_conversation_id ?? '',
  };
}

function toCreateRes(row: FeedbackRow): FeedbackCreateRes {
  return { id: row.id, created_at: formatTimestamp(row.created_at), wb_user_id: row.wb_user_id, payload: row.payload };
}

/** Client-named fields -> selections; none (null or []) means every column. */
function selections(fields: readonly string[] | null | undefined): FeedbackSelection[] {
  const names = fields && fields.length > 0 ? [...new Set(fields)] : FEEDBACK_COLUMNS;
  return names.map((key) => ({ key, field: feedbackFields.resolve(key) }));
}

export function createFeedbackService(store: FeedbackStore, opts: FeedbackServiceOptions = {}): FeedbackService {
  const now = opts.now ?? nowMicros;
  const newId = opts.newId ?? (() => uuidv7());
  const complete = opts.complete ?? (async (rows: readonly FeedbackRow[]) => [...rows]);

  /** Validation and processing, no I/O: every error surfaces before anything is written. */
  const prepare = (req: FeedbackCreateReq, userId: string, at: Micros): FeedbackRow => {
    validateFeedbackCreate(req);
    return toFeedbackRow(req, processFeedbackPayload(req), userId, at, newId);
  };

  return {
    async create(req, userId) {
      const [row] = await complete([prepare(req, userId, now())]);
      await store.insert([row!]);
      return toCreateRes(row!);
    },

    async createBatch(reqs, userId) {
      const at = now();
      const rows = await complete(reqs.map((r) => prepare(r, userId, at)));
      if (rows.length > 0) await store.insert(rows);
      return rows.map(toCreateRes);
    },

    async query(req) {
      const where = req.query ? compileQuery(req.query, feedbackFields) : null;
      const total_count = await store.count(req.project_id, where);
      // fields: ["count(*)"] (any case) answers one row with the count, as Weave's ORM does.
      const countField = req.fields?.find((f) => f.toLowerCase() === 'count(*)');
      if (countField !== undefined) {
        if (req.fields!.length > 1) throw new InvalidRequestError('count(*) cannot be combined with other fields');
        return { result: (req.offset ?? 0) > 0 || req.limit === 0 ? [] : [{ [countField]: total_count }], total_count };
      }
      const rows = await store.query({
        projectId: req.project_id,
        select: selections(req.fields),
        where,
        sort: (req.sort_by ?? []).map((s) => ({ field: feedbackFields.resolve(s.field), direction: s.direction })),
        limit: req.limit ?? null,
        offset: req.offset ?? null,
      });
      // Times leave as ISO strings; everything else is as the store decoded it.
      for (const row of rows) {
        if (typeof row.created_at === 'number') row.created_at = formatTimestamp(row.created_at);
      }
      return { result: rows, total_count };
    },

    async purge(req) {
      const ids = purgeIdsFromExpr(req.query.$expr);
      await store.purge(req.project_id, ids);
    },

    async replace(req, userId) {
      const { feedback_id: feedbackId, ...createReq } = req;
      const [row] = await complete([prepare(createReq, userId, now())]);
      await store.replace(req.project_id, feedbackId, row!);
      return toCreateRes(row!);
    },

    stats: (req) => feedbackStats(store, req, now()),
    aggregate: (req) => feedbackAggregate(store, req),
    payloadSchema: (req) => feedbackPayloadSchema(store, req, now()),
  };
}
