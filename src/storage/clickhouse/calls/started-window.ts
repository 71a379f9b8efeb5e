// Where a page sorted by start time begins (buildStartedWindow), asked with the answer this
// process last got to the same question as a guess. Without one, ClickHouse reads the end of
// every part of the project in key order (measured on chdb, 1,000,000 calls in 9 parts: ~9 ms
// for the newest 300 roots); with it, the parts wholly before the guess are skipped (~3 ms).
// The guess only narrows the question: when fewer than k rows lie beyond it (calls purged
// since), the question is asked again without it. Other processes' writes need nothing: new
// rows only add to what lies beyond the guess, and the read the window bounds checks it got a
// whole page (clickhouse/calls/call-store.ts).
import type { ClickHouseClient } from '@clickhouse/client';
import type { CallsQuery } from '../../../query/calls-query.js';
import { selectRows } from '../engine/client.js';
import { trimOldest } from '../engine/trim-oldest.js';
import { buildStartedWindow, type LeafReads, type StartedBound } from './call-select.js';

/** Pages (limit + offset) up to this size are read through a window of the sort key. */
const WINDOWED_UP_TO = 10_000;
/** Questions whose last answer is kept (a few hundred bytes each). */
const GUESSES_KEPT = 1000;

/**
 * How a bound on the start time narrows a page of `q`: `>=` when it is sorted newest first,
 * `<=` oldest first; null when it has no limit or is not sorted by start time first.
 */
export function boundOp(q: CallsQuery): StartedBound['op'] | null {
  const first = q.sort[0];
  if (q.limit === null || first === undefined || first.field.kind !== 'column' || first.field.name !== 'started_at')
    return null;
  return first.direction === 'desc' ? '>=' : '<=';
}

/** The bound of the window a query's page lies in, or null when it is read unbounded. */
export type StartedWindow = (q: CallsQuery, leaves: LeafReads) => Promise<StartedBound | null>;

export function startedWindow(client: ClickHouseClient, database: string): StartedWindow {
  /** The last answer to each question (its statement without a guess), oldest first. */
  const guesses = new Map<string, number>();

  async function kth(statement: { sql: string; params: Record<string, unknown> }): Promise<number | null> {
    const [row] = await selectRows<{ started_at: string }>(client, statement.sql, statement.params);
    return row === undefined ? null : Number(row.started_at);
  }

  return async (q, leaves) => {
    const op = boundOp(q);
    if (op === null || q.limit === null) return null;
    const direction = op === '>=' ? 'desc' : 'asc';
    const need = q.limit + (q.offset ?? 0);
    if (need === 0 || need > WINDOWED_UP_TO) return null;
    const k = Math.max(need * 3, 300);
    const plain = buildStartedWindow(database, q, k, direction, leaves);
    const key = JSON.stringify([plain.sql, plain.params]);
    const guess = guesses.get(key);
    let at = guess === undefined ? null : await kth(buildStartedWindow(database, q, k, direction, leaves, guess));
    at ??= await kth(plain);
    guesses.delete(key);
    if (at !== null) {
      guesses.set(key, at);
      trimOldest(guesses, GUESSES_KEPT);
    }
    return at === null ? null : { op, at };
  };
}
