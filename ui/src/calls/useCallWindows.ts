// The calls table reads its rows in windows of WINDOW calls, fetched when they scroll into
// view (offset paging on the server's sort), and the total from /calls/query_stats.
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { postJson, postJsonl } from '../api/client';
import type { Call, CallsQueryReq } from '../api/types';

export const WINDOW = 200;

/**
 * The columns a table row needs: inputs and output for their preview cells (a cell shows at
 * most 200 characters of them, never a whole payload), no attributes.
 */
export const ROW_COLUMNS = [
  'inputs',
  'output',
  'id',
  'op_name',
  'display_name',
  'trace_id',
  'parent_id',
  'started_at',
  'ended_at',
  'exception',
  'summary',
  'wb_user_id',
];

export interface CallWindows {
  total: number | null;
  /** Rows of the first window, once fetched: what can be shown before the count arrives. */
  firstWindow: number | null;
  totalError: unknown;
  row(index: number): Call | undefined;
  /** The first failed window's error, if any. */
  error: unknown;
  refetch(): void;
}

export function useCallWindows(
  base: Omit<CallsQueryReq, 'limit' | 'offset'>,
  first: number,
  last: number,
): CallWindows {
  const key = JSON.stringify(base);
  const stats = useQuery({
    queryKey: ['calls-count', key],
    queryFn: ({ signal }) =>
      postJson<{ count: number }>(
        '/calls/query_stats',
        { project_id: base.project_id, filter: base.filter, query: base.query },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
  const windows: number[] = [];
  for (let w = Math.floor(Math.max(first, 0) / WINDOW); w <= Math.floor(Math.max(last, 0) / WINDOW); w++)
    windows.push(w);
  const results = useQueries({
    queries: windows.map((w) => ({
      queryKey: ['calls-window', key, w],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        postJsonl<Call>('/calls/stream_query', { ...base, offset: w * WINDOW, limit: WINDOW }, signal),
      staleTime: 30_000,
    })),
  });
  const byWindow = new Map(windows.map((w, i) => [w, results[i]]));
  return {
    total: stats.data?.count ?? null,
    firstWindow: byWindow.get(0)?.data?.length ?? null,
    totalError: stats.error,
    row: (i) => byWindow.get(Math.floor(i / WINDOW))?.data?.[i % WINDOW],
    error: results.find((r) => r.error)?.error ?? null,
    refetch: () => {
      void stats.refetch();
      for (const r of results) if (r.error) void r.refetch();
    },
  };
}
