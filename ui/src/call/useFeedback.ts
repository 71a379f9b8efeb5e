// A call's feedback (reactions, notes, scores) through /feedback/*, and the writes the UI
// makes: add a reaction or a note, take back one of the viewer's own.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../api/client';
import type { FeedbackCreateReq, FeedbackPurgeReq, FeedbackQueryReq } from '../api/types';

export const REACTION = 'wandb.reaction.1';
export const NOTE = 'wandb.note.1';

export interface FeedbackRow {
  id: string;
  feedback_type: string;
  payload: Record<string, unknown>;
  wb_user_id: string | null;
  creator: string | null;
  created_at: string;
  runnable_ref?: string | null;
}

export const callRef = (projectId: string, callId: string) => `weave:///${projectId}/call/${callId}`;

export function useFeedback(projectId: string, callId: string) {
  const queryClient = useQueryClient();
  const ref = callRef(projectId, callId);
  const key = ['feedback', projectId, callId];
  const list = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const req: FeedbackQueryReq = {
        project_id: projectId,
        query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: ref }] } },
        sort_by: [{ field: 'created_at', direction: 'asc' }],
      };
      return (await postJson<{ result: FeedbackRow[] }>('/feedback/query', req, signal)).result;
    },
  });
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    // The calls table shows feedback counts.
    void queryClient.invalidateQueries({ queryKey: ['calls-window'] });
  };
  const add = useMutation({
    mutationFn: (f: { feedback_type: string; payload: Record<string, unknown> }) => {
      const req: FeedbackCreateReq = { project_id: projectId, weave_ref: ref, ...f };
      return postJson('/feedback/create', req);
    },
    onSuccess: changed,
  });
  const remove = useMutation({
    mutationFn: (id: string) => {
      const req: FeedbackPurgeReq = {
        project_id: projectId,
        query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } },
      };
      return postJson('/feedback/purge', req);
    },
    onSuccess: changed,
  });
  return { list, add, remove };
}
