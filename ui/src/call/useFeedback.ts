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

/**
 * The ref of an agent turn or conversation as Weave writes it (Python's quote: every byte but
 * letters, digits, '_.-~' and '/' percent-encoded), equal to the one the server stores.
 */
export function agentRef(projectId: string, kind: 'agent_turn' | 'agent_conversation', id: string): string {
  const quoted = encodeURIComponent(id)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, '/');
  return `weave:///${projectId}/${kind}/${quoted}`;
}

export function useFeedback(projectId: string, callId: string) {
  return useRefFeedback(projectId, callRef(projectId, callId));
}

/** The feedback on any ref the feedback API accepts (a call, an agent turn or conversation). */
export function useRefFeedback(projectId: string, ref: string) {
  const queryClient = useQueryClient();
  const key = ['feedback', projectId, ref];
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
