// POST /threads/stream_query: conversation threads, aggregated from their turn calls (the
// calls whose id is their turn_id), as JSON Lines (Weave's ThreadsQueryReq / ThreadSchema).
import { Type, type Static } from 'typebox';
import { DateTime, Limit, Nullable, Offset, ProjectId, SortBy, Strict } from './common.js';
import { List, MAX_FILTER_LENGTH, MAX_NAMES } from './limits.js';
import { defineRoute } from './route-spec.js';

export const ThreadsQueryFilter = Strict({
  after_datetime: Nullable(DateTime),
  before_datetime: Nullable(DateTime),
  thread_ids: Nullable(List(Type.String(), MAX_FILTER_LENGTH)),
});

export const ThreadsQueryReq = Strict({
  project_id: ProjectId,
  filter: Nullable(ThreadsQueryFilter),
  limit: Limit,
  offset: Offset,
  sort_by: Nullable(
    List(SortBy, MAX_NAMES, {
      description:
        'thread_id, turn_count, start_time, last_updated, p50_turn_duration_ms, p99_turn_duration_ms; default last_updated desc',
    }),
  ),
});
export type ThreadsQueryReq = Static<typeof ThreadsQueryReq>;

export const ThreadSchema = Type.Object({
  thread_id: Type.String(),
  turn_count: Type.Integer({ description: 'Turn calls in the thread' }),
  start_time: DateTime,
  last_updated: DateTime,
  first_turn_id: Type.Union([Type.String(), Type.Null()]),
  last_turn_id: Type.Union([Type.String(), Type.Null()]),
  p50_turn_duration_ms: Type.Union([Type.Number(), Type.Null()]),
  p99_turn_duration_ms: Type.Union([Type.Number(), Type.Null()]),
});
export type ThreadSchema = Static<typeof ThreadSchema>;

export const threadsRoutes = {
  threadsStreamQuery: defineRoute({
    access: 'read',
    id: 'threads_query_stream',
    method: 'POST',
    path: '/threads/stream_query',
    tag: 'Threads',
    summary: 'Query threads (turn counts, first and last turn, turn latency) as JSON Lines',
    body: ThreadsQueryReq,
    response: ThreadSchema,
    reply: 'jsonl',
    errors: [400],
  }),
} as const;
