// /feedback/aggregate (api/feedback-analytics.ts): agent scorer tags and ratings of the feedback
// created in [after_ms, before_ms), per UTC time bucket and group, as Weave's
// feedback_agg_query_builder. Buckets are sparse (a bucket or group without rows is left out),
// except that without a bucket and a group_by the answer is one row, even over no rows. Rows
// come ordered by bucket, then by the group's values. Checked here: before_ms > after_ms, at
// most 256 buckets, and at most 31 days unless the request has no bucket, group or filter.
import {
  FEEDBACK_AGGREGATE_MAX_BUCKETS,
  FEEDBACK_MAX_RANGE_DAYS,
  type FeedbackAggregateBucket,
  type FeedbackAggregateReq,
} from '../../api/feedback-analytics.js';
import { InvalidRequestError } from '../../api/errors.js';
import type {
  FeedbackAggregateCell,
  FeedbackAnalyticsStore,
  FeedbackDimension,
  ObjectIdMatch,
} from '../../storage/feedback/feedback-analytics.js';
import { readable } from '../stats/time-buckets.js';

const DAY_MS = 86_400_000;

/** Exact by default; a trailing '*' asks for a prefix (Weave strips every trailing '*'). */
const idMatches = (ids: readonly string[]): ObjectIdMatch[] =>
  ids.map((v) => (v.endsWith('*') ? { value: v.replace(/\*+$/, ''), prefix: true } : { value: v, prefix: false }));

/** Code-unit order: code-point order (Weave's) for every text without astral characters. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compareCells(a: FeedbackAggregateCell, b: FeedbackAggregateCell): number {
  if (a.bucket !== b.bucket) return (a.bucket ?? 0) - (b.bucket ?? 0);
  for (let i = 0; i < a.group.length; i++) {
    const c = compareText(a.group[i]!, b.group[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

const sortedKeys = <T>(m: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(m).sort(([x], [y]) => compareText(x, y)));

function toBucket(cell: FeedbackAggregateCell, groupBy: readonly FeedbackDimension[]): FeedbackAggregateBucket {
  // A rating whose sum is 0 may be missing from the engine's sums (sumMap): its count says it is there.
  const sums: Record<string, number> = {};
  for (const k of Object.keys(cell.ratingCounts)) sums[k] = readable(cell.ratingSums[k] ?? 0);
  return {
    time_bucket_start_ms: cell.bucket === null ? null : Math.floor(cell.bucket / 1000),
    group: Object.fromEntries(groupBy.map((d, i) => [d, cell.group[i]!])),
    total_count: cell.total,
    scored_count: cell.scored,
    tag_counts: sortedKeys(cell.tagCounts),
    rating_counts: sortedKeys(cell.ratingCounts),
    rating_sums: sortedKeys(sums),
  };
}

export async function feedbackAggregate(store: FeedbackAnalyticsStore, req: FeedbackAggregateReq) {
  if (req.before_ms <= req.after_ms) throw new InvalidRequestError('before_ms must be greater than after_ms');
  const seconds = req.time_bucket_seconds ?? null;
  const groupBy = [...new Set(req.group_by ?? [])];
  const lists = {
    feedback_types: req.feedback_types ?? [],
    tags: req.tags ?? [],
    monitor_ids: req.monitor_ids ?? [],
    scorer_ids: req.scorer_ids ?? [],
    span_agent_names: req.span_agent_names ?? [],
    span_types: req.span_types ?? [],
  };
  const rangeMs = req.before_ms - req.after_ms;
  const filtered =
    Object.values(lists).some((l) => l.length > 0) ||
    (req.rating_min ?? null) !== null ||
    (req.rating_max ?? null) !== null;
  if (seconds !== null && Math.ceil(rangeMs / (seconds * 1000)) > FEEDBACK_AGGREGATE_MAX_BUCKETS)
    throw new InvalidRequestError(
      `${Math.ceil(rangeMs / (seconds * 1000))} time buckets exceed ${FEEDBACK_AGGREGATE_MAX_BUCKETS}: raise time_bucket_seconds`,
    );
  if (rangeMs > FEEDBACK_MAX_RANGE_DAYS * DAY_MS && (seconds !== null || groupBy.length > 0 || filtered))
    throw new InvalidRequestError(
      `with a time bucket, a group_by or a filter the range cannot exceed ${FEEDBACK_MAX_RANGE_DAYS} days`,
    );

  const cells = await store.aggregate({
    projectId: req.project_id,
    after: req.after_ms * 1000,
    before: req.before_ms * 1000,
    width: seconds === null ? null : seconds * 1_000_000,
    feedbackTypePrefixes: lists.feedback_types.map((t) => t.replace(/\*+$/, '')),
    tags: lists.tags,
    ratingMin: req.rating_min ?? null,
    ratingMax: req.rating_max ?? null,
    monitorIds: idMatches(lists.monitor_ids),
    scorerIds: idMatches(lists.scorer_ids),
    spanAgentNames: lists.span_agent_names,
    spanTypes: lists.span_types,
    groupBy,
  });
  const kept = cells.filter((c) => c.total > 0).sort(compareCells);
  if (kept.length === 0 && seconds === null && groupBy.length === 0)
    kept.push({ bucket: null, group: [], total: 0, scored: 0, tagCounts: {}, ratingCounts: {}, ratingSums: {} });
  return {
    time_bucket_seconds: seconds,
    after_ms: req.after_ms,
    before_ms: req.before_ms,
    buckets: kept.map((c) => toBucket(c, groupBy)),
  };
}
