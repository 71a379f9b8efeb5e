// Pages of calls sorted by start time, read through a bound on it (`FINAL` keeps ClickHouse
// from reading in key order, so without one it merges and sorts every matching row; measured
// on 1M calls: the newest 100 roots in ~100 ms with the bound against ~220 ms). The bound is
// where the same page ended last time (clickhouse/calls/page-guess.ts), else the window
// (clickhouse/calls/started-window.ts). A bounded read is the page when it comes back full; else the
// page ends inside the bound or the bound was short of rows that pass the other conditions,
// and the next way is tried; when none gives it whole, the caller reads unbounded.
//
// With a row cache (clickhouse/calls/call-cache.ts), a page of at most CACHED_PAGE_MAX calls is read
// as its calls' ids and row versions first, and only the calls the cache lacks at those
// versions are read in full.
import type { ClickHouseClient } from '@clickhouse/client';
import type { StoredCall } from '../../calls/call-store.js';
import type { CallsQuery } from '../../../query/calls-query.js';
import { nowMicros } from '../../../time.js';
import { rowReader } from '../engine/rows.js';
import { CallCache, rowVersion } from './call-cache.js';
import { GUESSED_READ_MAX_ROWS, pageGuesses } from './page-guess.js';
import { startedWindow, type StartedWindow } from './started-window.js';
import {
  CALL_KEYS_COLUMNS,
  CALLS_BY_IDS_COLUMNS,
  CALLS_SELECT_COLUMNS,
  buildCallsByIds,
  buildCallsKeys,
  buildCallsSelect,
  storedCallOf,
  type LeafReads,
  type StartedBound,
} from './call-select.js';

/** Pages up to this many calls go through the row cache. */
const CACHED_PAGE_MAX = 1000;

/** The row cache's bound unless configured (WEFT_CLICKHOUSE_CALL_CACHE_BYTES). */
export const DEFAULT_CALL_CACHE_BYTES = 64 * 1024 * 1024;

export interface CallPagesOptions {
  /** The row cache's bound in bytes (0: no cache). */
  readonly cacheBytes: number;
  /** Most rows a read through a remembered bound may select (default GUESSED_READ_MAX_ROWS). */
  readonly guessedReadMaxRows?: number;
}

/** The page of `q` read through a bound on the start time, or null when no bound gives it whole. */
export type CallPages = (q: CallsQuery, leaves: LeafReads) => Promise<StoredCall[] | null>;

/** ClickHouse refused a read for selecting more rows than max_rows_to_read allows (TOO_MANY_ROWS). */
const isTooManyRows = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '158';

export function callPages(client: ClickHouseClient, database: string, opts: CallPagesOptions): CallPages {
  const { allRows } = rowReader(client);
  const lastPages = pageGuesses();
  const startedBound: StartedWindow = startedWindow(client, database);
  const cache = opts.cacheBytes > 0 ? new CallCache(opts.cacheBytes) : null;
  const maxRows = opts.guessedReadMaxRows ?? GUESSED_READ_MAX_ROWS;

  /**
   * `q`'s page read within `bound`, or null when the bound does not hold all of it (the read
   * came back short); `capped`: refuse a read of many rows (TOO_MANY_ROWS).
   */
  async function readPage(
    q: CallsQuery,
    leaves: LeafReads,
    bound: StartedBound,
    capped: boolean,
  ): Promise<StoredCall[] | null> {
    // In the statement, not as client settings: chdb's connection applies those to its session.
    const cap = capped ? ` SETTINGS max_rows_to_read = ${Math.floor(maxRows)}, read_overflow_mode = 'throw'` : '';
    if (cache === null || q.limit === null || q.limit > CACHED_PAGE_MAX) return readInFull(q, leaves, bound, cap);
    const keys = buildCallsKeys(database, q, nowMicros(), bound, leaves);
    const page = (await allRows(keys.sql + cap, keys.params, CALL_KEYS_COLUMNS)).map((r) => ({
      id: String(r[0]),
      version: rowVersion(r[1]),
      started: Number(r[2]),
    }));
    // Short: no call of it is read (the caller tries the next way).
    if (!isFull(q, page)) return null;
    const missing = page.filter((k) => cache.get(q.projectId, k.id, k.version) === undefined);
    if (missing.length > 0) {
      const starts = missing.map((k) => k.started);
      const byIds = buildCallsByIds(
        database,
        q.projectId,
        missing.map((k) => k.id),
        Math.min(...starts),
        Math.max(...starts),
        nowMicros(),
      );
      for (const r of await allRows(byIds.sql, byIds.params, CALLS_BY_IDS_COLUMNS)) {
        cache.set(rowVersion(r[CALLS_SELECT_COLUMNS.length]), storedCallOf(r));
      }
    }
    const out: StoredCall[] = [];
    for (const k of page) {
      const call = cache.get(q.projectId, k.id, k.version);
      // Changed, deleted or evicted since its version was read: the page is read in full instead.
      if (call === undefined) return readInFull(q, leaves, bound, cap);
      out.push(copyOf(call, q));
    }
    return out;
  }

  async function readInFull(
    q: CallsQuery,
    leaves: LeafReads,
    bound: StartedBound,
    cap: string,
  ): Promise<StoredCall[] | null> {
    const { sql, params } = buildCallsSelect(database, q, nowMicros(), bound, leaves);
    const calls = (await allRows(sql + cap, params, CALLS_SELECT_COLUMNS)).map(storedCallOf);
    return isFull(q, calls) ? calls : null;
  }

  return async (q, leaves) => {
    const full = (calls: StoredCall[] | null) => {
      if (calls !== null) lastPages.remember(q, calls.at(-1)!.started_at);
      return calls;
    };
    const last = lastPages.get(q);
    if (last !== null) {
      try {
        const page = full(await readPage(q, leaves, last, true));
        if (page !== null) return page;
      } catch (err) {
        if (!isTooManyRows(err)) throw err;
      }
      lastPages.forget(q);
    }
    const bound = await startedBound(q, leaves);
    return bound === null ? null : full(await readPage(q, leaves, bound, false));
  };
}

/** Whether a bounded read holds the whole page: as many rows as the limit (and some). */
const isFull = (q: CallsQuery, rows: readonly unknown[]): boolean => rows.length > 0 && rows.length === q.limit;

/**
 * A copy of a cached call for `q` (the caller may fill in its trace's total): its storage size
 * only when asked for. Columns `q` did not ask for may be there (CallStore allows it; the
 * service renders only those asked for).
 */
function copyOf(call: StoredCall, q: CallsQuery): StoredCall {
  return {
    ...call,
    storage_size_bytes: q.includeStorageSize ? call.storage_size_bytes : null,
    total_storage_size_bytes: null,
  };
}
