// The queries of the evaluation views: the project's evaluate calls, one run's calls, its
// predict-and-score children, and the dataset rows their example refs name.
import { useQueries, useQuery } from '@tanstack/react-query';
import { postJson, postJsonl } from '../api/client';
import type { Call, CallsQueryReq } from '../api/types';
import { isPredictAndScore } from './evalData';

const RUN_COLUMNS = [
  'id',
  'op_name',
  'display_name',
  'trace_id',
  'started_at',
  'ended_at',
  'exception',
  'inputs',
  'output',
  'summary',
];

export function useEvaluateCalls(projectId: string) {
  return useQuery({
    queryKey: ['evaluations', projectId],
    queryFn: ({ signal }) => {
      const req: CallsQueryReq = {
        project_id: projectId,
        query: {
          $expr: { $contains: { input: { $getField: 'op_name' }, substr: { $literal: '/op/Evaluation.evaluate:' } } },
        },
        sort_by: [{ field: 'started_at', direction: 'desc' }],
        columns: RUN_COLUMNS,
        limit: 1000,
      };
      return postJsonl<Call>('/calls/stream_query', req, signal);
    },
  });
}

/** Each run's evaluate call and its predict-and-score children. */
export function useRuns(projectId: string, ids: readonly string[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: ['evaluation-run', projectId, id],
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const [runs, children] = await Promise.all([
          postJsonl<Call>(
            '/calls/stream_query',
            { project_id: projectId, filter: { call_ids: [id] }, columns: RUN_COLUMNS } satisfies CallsQueryReq,
            signal,
          ),
          postJsonl<Call>(
            '/calls/stream_query',
            {
              project_id: projectId,
              filter: { parent_ids: [id] },
              columns: RUN_COLUMNS,
              sort_by: [{ field: 'started_at', direction: 'asc' }],
            } satisfies CallsQueryReq,
            signal,
          ),
        ]);
        return { run: runs[0] ?? null, examples: children.filter((c) => isPredictAndScore(c.op_name)) };
      },
    })),
  });
}

/** The values of refs (dataset rows), read in batches through /refs/read_batch. */
export function useRefValues(refs: readonly string[]) {
  const sorted = [...new Set(refs.filter((r) => r.startsWith('weave:///')))].sort();
  return useQuery({
    queryKey: ['ref-values', sorted],
    enabled: sorted.length > 0,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const out = new Map<string, unknown>();
      for (let i = 0; i < sorted.length; i += 100) {
        const batch = sorted.slice(i, i + 100);
        const { vals } = await postJson<{ vals: unknown[] }>('/refs/read_batch', { refs: batch }, signal);
        batch.forEach((r, j) => {
          out.set(r, vals[j]);
        });
      }
      return out;
    },
  });
}
