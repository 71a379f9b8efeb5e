// threads/stream_query: one row per thread, aggregated from its live turn calls (the calls
// whose id is their turn_id), as Weave's ClickHouse server computes it: turn_count, the
// earliest start, the latest end, the turn that started first and the one that ended last,
// and the 50th / 99th percentiles of the ended turns' durations (linear interpolation between
// closest ranks). The time window filters turn calls by start, as Weave's sortable_datetime
// does. Threads none of whose turns has ended are left out (Weave's schema needs an end).
import { Readable } from 'node:stream';
import type { ThreadSchema, ThreadsQueryReq } from '../../api/threads.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { ThreadTurns } from '../../storage/calls/call-store.js';
import type { Store } from '../../storage/store.js';
import { formatTimestamp, parseTimestamp } from '../../time.js';

const SORT_FIELDS = [
  'thread_id',
  'turn_count',
  'start_time',
  'last_updated',
  'p50_turn_duration_ms',
  'p99_turn_duration_ms',
] as const;
type SortField = (typeof SORT_FIELDS)[number];

interface ThreadRow {
  readonly thread_id: string;
  readonly turn_count: number;
  readonly start: number;
  readonly end: number;
  readonly first_turn_id: string;
  readonly last_turn_id: string;
  readonly p50: number;
  readonly p99: number;
}

/** The q-th quantile (0..1) of sorted values, interpolating linearly between closest ranks. */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function aggregate(t: ThreadTurns): ThreadRow | null {
  let first = t.turns[0]!;
  let last: (typeof t.turns)[number] | null = null;
  const durations: number[] = [];
  for (const turn of t.turns) {
    if (turn[1] < first[1]) first = turn;
    if (turn[2] === null) continue;
    if (last === null || turn[2] > last[2]!) last = turn;
    durations.push((turn[2] - turn[1]) / 1000);
  }
  if (last === null) return null;
  durations.sort((a, b) => a - b);
  return {
    thread_id: t.thread_id,
    turn_count: t.turns.length,
    start: first[1],
    end: last[2]!,
    first_turn_id: first[0],
    last_turn_id: last[0],
    p50: quantile(durations, 0.5),
    p99: quantile(durations, 0.99),
  };
}

const VALUE: Readonly<Record<SortField, (r: ThreadRow) => string | number>> = {
  thread_id: (r) => r.thread_id,
  turn_count: (r) => r.turn_count,
  start_time: (r) => r.start,
  last_updated: (r) => r.end,
  p50_turn_duration_ms: (r) => r.p50,
  p99_turn_duration_ms: (r) => r.p99,
};

function comparator(sortBy: ThreadsQueryReq['sort_by']): (a: ThreadRow, b: ThreadRow) => number {
  const terms = sortBy && sortBy.length > 0 ? sortBy : [{ field: 'last_updated', direction: 'desc' as const }];
  const keys = terms.map((t) => {
    if (!(SORT_FIELDS as readonly string[]).includes(t.field)) {
      throw new InvalidRequestError(`Unsupported sort field: ${t.field}. Supported fields: ${SORT_FIELDS.join(', ')}`);
    }
    return { value: VALUE[t.field as SortField], sign: t.direction === 'desc' ? -1 : 1 };
  });
  return (a, b) => {
    for (const k of keys) {
      const x = k.value(a);
      const y = k.value(b);
      if (x !== y) return (x < y ? -1 : 1) * k.sign;
    }
    return a.thread_id < b.thread_id ? -1 : a.thread_id > b.thread_id ? 1 : 0;
  };
}

const render = (r: ThreadRow): ThreadSchema => ({
  thread_id: r.thread_id,
  turn_count: r.turn_count,
  start_time: formatTimestamp(r.start),
  last_updated: formatTimestamp(r.end),
  first_turn_id: r.first_turn_id,
  last_turn_id: r.last_turn_id,
  p50_turn_duration_ms: r.p50,
  p99_turn_duration_ms: r.p99,
});

/** The threads as JSON Lines. */
export async function queryThreads(store: Store, req: ThreadsQueryReq): Promise<Readable> {
  const compare = comparator(req.sort_by);
  const f = req.filter ?? {};
  const groups = await store.calls.threadTurns(req.project_id, {
    startedAfter: f.after_datetime != null ? parseTimestamp(f.after_datetime, 'after_datetime') : null,
    startedBefore: f.before_datetime != null ? parseTimestamp(f.before_datetime, 'before_datetime') : null,
    threadIds: f.thread_ids && f.thread_ids.length > 0 ? f.thread_ids : null,
  });
  const rows = groups
    .map(aggregate)
    .filter((r): r is ThreadRow => r !== null)
    .sort(compare);
  const offset = req.offset ?? 0;
  const page = rows.slice(offset, req.limit == null ? undefined : offset + req.limit);
  return Readable.from(page.length === 0 ? [] : [page.map((r) => `${JSON.stringify(render(r))}\n`).join('')]);
}
