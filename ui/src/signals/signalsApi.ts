// The Signals view's reads, all through the public API: the turns' signals (/feedback/query on
// `wandb.agent_monitor`, newest first), the scored turns' last messages (their spans with
// output, /agents/spans/query), and the counts and mean ratings per bucket (/feedback/aggregate).
import { postJson } from '../api/client';
import type { FeedbackAggregateReq, FeedbackAggregateRes, FeedbackQueryReq, Query } from '../api/types';
import { and, eq, INVOCATION_OPERATIONS, inList, spanRows } from '../agents/agentsApi';
import { isDict } from '../isDict';
import { AGENT_MONITOR, RATING_KEY, type SignalRow, verdictOf } from './signalVerdict';
import { bucketSecondsOf, type SignalsSearch, windowOf } from './signalsSearch';

type Expr = Record<string, unknown>;
const contains = (field: string, substr: string): Expr => ({
  $contains: { input: { $getField: field }, substr: { $literal: substr } },
});
const createdAt = (op: '$gte' | '$lt', ms: number): Expr => ({
  [op]: [{ $getField: 'created_at' }, { $literal: new Date(ms).toISOString() }],
});

/** The filters /feedback/query can apply (the rating range is applied to the rows after). */
function rowsQuery(s: SignalsSearch): Query {
  const w = windowOf(s);
  const zoomed = s.from !== undefined;
  return and(
    eq('feedback_type', AGENT_MONITOR),
    createdAt('$gte', w.after),
    ...(zoomed ? [createdAt('$lt', w.before)] : []),
    ...(s.scorer ? [contains('runnable_ref', `/object/${s.scorer}:`)] : []),
    ...(s.agent ? [eq('span_agent_name', s.agent)] : []),
    // scorer_tags is a JSON list: the tag in quotes matches that tag only.
    ...(s.tag ? [contains('scorer_tags', JSON.stringify(s.tag))] : []),
    ...(s.min !== undefined || s.max !== undefined ? [contains('scorer_ratings', RATING_KEY)] : []),
    // A verdict that gave neither a rating nor a tag (a tag judge that found none) is no signal.
    { $not: [{ $and: [eq('scorer_tags', '[]'), eq('scorer_ratings', '{}')] }] },
  )!;
}

const inRange = (s: SignalsSearch) => (r: SignalRow) => {
  if (s.min === undefined && s.max === undefined) return true;
  const rating = verdictOf(r).rating;
  return rating !== null && rating >= (s.min ?? 0) && rating <= (s.max ?? 1);
};

/** The latest `limit` signals matching the search; `more`: there may be older ones. */
export async function signalRows(
  projectId: string,
  s: SignalsSearch,
  limit: number,
  signal: AbortSignal,
): Promise<{ rows: SignalRow[]; more: boolean }> {
  const req: FeedbackQueryReq = {
    project_id: projectId,
    query: rowsQuery(s),
    sort_by: [{ field: 'created_at', direction: 'desc' }],
    limit,
  };
  const { result } = await postJson<{ result: SignalRow[] }>('/feedback/query', req, signal);
  return { rows: result.filter(inRange(s)), more: result.length >= limit };
}

const textOf = (content: unknown): string => {
  if (typeof content !== 'string') return content === null || content === undefined ? '' : JSON.stringify(content);
  // Content that is not plain text is stored as the JSON text of its parts.
  try {
    const parts = JSON.parse(content) as unknown;
    if (Array.isArray(parts))
      return parts
        .filter(isDict)
        .map((p) => (typeof p.content === 'string' ? p.content : typeof p.text === 'string' ? p.text : ''))
        .filter((t) => t !== '')
        .join(' ');
  } catch {
    // Plain text.
  }
  return content;
};

/** The text of the last message a span answered with ('' when none). */
function answerOf(span: Record<string, unknown>): string {
  const raw = span.output_messages;
  const list = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  if (!Array.isArray(list)) return '';
  const last = list.filter((m) => isDict(m) && m.role !== 'user').at(-1);
  return isDict(last) ? textOf(last.content).trim() : '';
}

/** The best answer of each trace among the spans: a root span's, else the one that ended last. */
function answersOf(spans: Record<string, unknown>[]): Map<string, string> {
  const best = new Map<string, { root: boolean; end: string; text: string }>();
  for (const s of spans) {
    const text = answerOf(s);
    if (text === '') continue;
    const trace = String(s.trace_id);
    const root = s.parent_span_id === null || s.parent_span_id === '';
    const end = String(s.ended_at ?? '');
    const seen = best.get(trace);
    if (seen === undefined || (root && !seen.root) || (root === seen.root && end > seen.end))
      best.set(trace, { root, end, text });
  }
  return new Map([...best].map(([t, b]) => [t, b.text]));
}

/**
 * Each turn's last message (the agent's answer), by trace id: its root span's output, else that
 * of the span with output that ended last (as the judges read a turn). The agents' runs are read
 * first; the other spans only of turns whose runs answered nothing.
 */
export async function lastMessages(
  projectId: string,
  traceIds: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, string>> {
  if (traceIds.length === 0) return new Map();
  const read = (ids: readonly string[], runsOnly: boolean) =>
    spanRows(
      {
        project_id: projectId,
        query: and(
          inList('trace_id', [...ids]),
          ...(runsOnly ? [inList('operation_name', INVOCATION_OPERATIONS)] : []),
        ),
        limit: 10_000,
      },
      signal,
    );
  const found = answersOf(await read(traceIds, true));
  const rest = traceIds.filter((t) => !found.has(t));
  if (rest.length > 0) for (const [t, text] of answersOf(await read(rest, false))) found.set(t, text);
  return new Map(traceIds.map((t) => [t, found.get(t) ?? '']));
}

/**
 * Tag counts and rating sums of the turns' signals per bucket of the window, grouped as asked.
 * `withFilters`: also the scorer, tag and rating filters (the agent filter always applies).
 */
export function aggregateSignals(
  projectId: string,
  s: SignalsSearch,
  groupBy: FeedbackAggregateReq['group_by'],
  withFilters: boolean,
  signal: AbortSignal,
): Promise<FeedbackAggregateRes> {
  const w = windowOf(s);
  const req: FeedbackAggregateReq = {
    project_id: projectId,
    after_ms: Math.floor(w.after),
    before_ms: Math.ceil(w.before),
    time_bucket_seconds: bucketSecondsOf(w),
    feedback_types: [AGENT_MONITOR],
    span_agent_names: s.agent ? [s.agent] : null,
    group_by: groupBy,
    ...(withFilters
      ? {
          scorer_ids: s.scorer ? [s.scorer] : null,
          tags: s.tag ? [s.tag] : null,
          rating_min: s.min ?? null,
          rating_max: s.max ?? null,
        }
      : {}),
  };
  return postJson<FeedbackAggregateRes>('/feedback/aggregate', req, signal);
}
