// Request and response schemas of the feedback endpoints (weave-api.md §1.24-1.27, §3.7).
// Field names and types follow the interface document's /feedback/replace table; the
// rules that need more than a schema (reserved types, refs, sizes) live in
// service/feedback-validate.ts.
import { Type, type Static } from 'typebox';
import { AnyObject, DateTime, EmptyRes, Limit, Nullable, Offset, ProjectId, SortBy, Strict } from './common.js';
import { Query } from './query.js';
import { DataList, List, MAX_NAMES } from './limits.js';
import { defineRoute } from './route-spec.js';
import { feedbackAnalyticsRoutes } from './feedback-analytics.js';

/** A number in [0, 1]: confidences and ratings. Out of range is a 422. */
const UnitInterval = Type.Number({ minimum: 0, maximum: 1 });
const StringMap = Type.Record(Type.String(), Type.String());
const UnitMap = Type.Record(Type.String(), UnitInterval);

const feedbackCreateFields = {
  id: Nullable(Type.String({ description: 'When given, used as the row id instead of a server-generated one' })),
  project_id: ProjectId,
  weave_ref: Type.String({ description: 'The ref the feedback is about, e.g. weave:///<entity>/<project>/call/<id>' }),
  creator: Nullable(Type.String({ description: 'Name of the creator' })),
  feedback_type: Type.String({ description: 'Free string; wandb.* types are reserved and checked' }),
  payload: AnyObject,
  annotation_ref: Nullable(
    Type.String({ description: 'Object ref of the AnnotationSpec (wandb.annotation.<name> only)' }),
  ),
  runnable_ref: Nullable(Type.String({ description: 'Op or object ref of the scorer (wandb.runnable.<name> only)' })),
  call_ref: Nullable(Type.String({ description: 'Call ref of the scorer call (wandb.runnable.<name> only)' })),
  trigger_ref: Nullable(Type.String({ description: 'Object ref of the trigger (wandb.runnable.<name> only)' })),
  queue_id: Nullable(Type.String({ description: 'Annotation queue the feedback came from' })),
  scorer_tags: Nullable(List(Type.String(), MAX_NAMES, { description: 'Tags applied to the ref by a scorer' })),
  scorer_tag_reasons: Nullable(StringMap),
  scorer_tag_confidences: Nullable(UnitMap),
  scorer_ratings: Nullable(UnitMap),
  scorer_rating_reasons: Nullable(StringMap),
  scorer_rating_confidences: Nullable(UnitMap),
  span_agent_name: Nullable(Type.String({ default: '' })),
  span_agent_version: Nullable(Type.String({ default: '' })),
  span_status_code: Nullable(Type.String({ default: 'UNSET' })),
  scorer_trace_id: Nullable(
    Type.String({ default: '', description: 'Trace of the scorer call that produced this feedback' }),
  ),
  span_trace_id: Nullable(Type.String({ default: '' })),
  span_conversation_id: Nullable(Type.String({ default: '' })),
  wb_user_id: Nullable(Type.String({ description: 'Ignored: the server sets it from the caller' })),
};

export const FeedbackCreateReq = Strict(feedbackCreateFields);
export type FeedbackCreateReq = Static<typeof FeedbackCreateReq>;

export const FeedbackCreateRes = Type.Object({
  id: Type.String(),
  created_at: DateTime,
  wb_user_id: Type.String(),
  payload: AnyObject,
});
export type FeedbackCreateRes = Static<typeof FeedbackCreateRes>;

export const FeedbackCreateBatchReq = Strict({ batch: DataList(FeedbackCreateReq) });
export type FeedbackCreateBatchReq = Static<typeof FeedbackCreateBatchReq>;
export const FeedbackCreateBatchRes = Type.Object({ res: Type.Array(FeedbackCreateRes) });

export const FeedbackQueryReq = Strict({
  project_id: ProjectId,
  fields: Nullable(
    List(Type.String(), MAX_NAMES, {
      description: 'Columns, or payload.<path>, or ["count(*)"] alone; default: every column',
    }),
  ),
  query: Nullable(Query),
  sort_by: Nullable(List(SortBy, MAX_NAMES)),
  limit: Limit,
  offset: Offset,
});
export type FeedbackQueryReq = Static<typeof FeedbackQueryReq>;
export const FeedbackQueryRes = Type.Object({
  result: Type.Array(AnyObject),
  total_count: Type.Integer({ minimum: 0, description: 'Rows matching the query, whatever limit and offset' }),
});

export const FeedbackPurgeReq = Strict({ project_id: ProjectId, query: Query });
export type FeedbackPurgeReq = Static<typeof FeedbackPurgeReq>;

export const FeedbackReplaceReq = Strict({
  ...feedbackCreateFields,
  feedback_id: Type.String({ description: 'Id of the feedback row to replace; absent rows are not an error' }),
});
export type FeedbackReplaceReq = Static<typeof FeedbackReplaceReq>;
export const FeedbackReplaceRes = FeedbackCreateRes;

const tag = 'Feedback';
export const feedbackRoutes = {
  feedbackCreate: defineRoute({
    access: 'write',
    id: 'feedback_create',
    method: 'POST',
    path: '/feedback/create',
    tag,
    summary: 'Add feedback to a ref',
    carriesData: true,
    body: FeedbackCreateReq,
    response: FeedbackCreateRes,
    errors: [400],
  }),
  feedbackCreateBatch: defineRoute({
    access: 'write',
    id: 'feedback_create_batch',
    method: 'POST',
    path: '/feedback/batch/create',
    tag,
    summary: 'Add several feedback rows at once (all or none)',
    carriesData: true,
    body: FeedbackCreateBatchReq,
    response: FeedbackCreateBatchRes,
    errors: [400],
  }),
  feedbackQuery: defineRoute({
    access: 'read',
    id: 'feedback_query',
    method: 'POST',
    path: '/feedback/query',
    tag,
    summary: 'Query feedback',
    body: FeedbackQueryReq,
    response: FeedbackQueryRes,
    errors: [400],
  }),
  feedbackPurge: defineRoute({
    access: 'write',
    id: 'feedback_purge',
    method: 'POST',
    path: '/feedback/purge',
    tag,
    summary: 'Permanently delete feedback by id',
    body: FeedbackPurgeReq,
    response: EmptyRes,
    errors: [400],
  }),
  feedbackReplace: defineRoute({
    access: 'write',
    id: 'feedback_replace',
    method: 'POST',
    path: '/feedback/replace',
    tag,
    summary: 'Replace a feedback row with a new one',
    carriesData: true,
    body: FeedbackReplaceReq,
    response: FeedbackReplaceRes,
    errors: [400],
  }),
  ...feedbackAnalyticsRoutes,
} as const;
