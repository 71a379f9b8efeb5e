// Where the last page of a query sorted by start time ended, kept per query as a bound for the
// next read of the same page. A page read with `started_at >= bound` (`<=` when oldest first)
// that comes back full is exactly the page the unbounded read returns: the rows beyond the
// bound fill it, and every row before the bound sorts after them. New calls only add rows
// beyond the bound; calls deleted or expired since can leave the bounded page short, and the
// caller then finds the page the other way (clickhouse/calls/started-window.ts). Reading through the
// last bound skips that window statement (~3-10 ms on chdb) when a page is read again, which
// is what a list that is refreshed, polled or paged back to does.
import type { CallsQuery } from '../../../query/calls-query.js';
import type { StartedBound } from './call-select.js';
import { trimOldest } from '../engine/trim-oldest.js';
import { boundOp } from './started-window.js';

/** Queries whose last page bound is kept (a few hundred bytes each). */
const QUERIES_KEPT = 1000;
/**
 * Most rows a read through a remembered bound may select (ClickHouse checks it before reading,
 * from the index): a bound that new calls have left far behind costs one refused statement,
 * not a long read.
 */
export const GUESSED_READ_MAX_ROWS = 200_000;

export interface PageGuesses {
  /** The bound the last full page of `q` ended at, or null. */
  get(q: CallsQuery): StartedBound | null;
  /** Remembers where a full page of `q` ended (`lastStartedAt`: its last row's start time). */
  remember(q: CallsQuery, lastStartedAt: number): void;
  /** Forgets `q`'s bound (it no longer gave a full page). */
  forget(q: CallsQuery): void;
}

/** The identity of a query's page: everything but the time it is asked at. */
const keyOf = (q: CallsQuery): string => JSON.stringify([q.projectId, q.where, q.sort, q.limit, q.offset]);

export function pageGuesses(): PageGuesses {
  const bounds = new Map<string, number>();
  return {
    get(q) {
      const op = q.limit === 0 ? null : boundOp(q);
      if (op === null) return null;
      const at = bounds.get(keyOf(q));
      return at === undefined ? null : { op, at };
    },
    remember(q, lastStartedAt) {
      if (boundOp(q) === null) return;
      const key = keyOf(q);
      bounds.delete(key);
      bounds.set(key, lastStartedAt);
      trimOldest(bounds, QUERIES_KEPT);
    },
    forget(q) {
      bounds.delete(keyOf(q));
    },
  };
}
