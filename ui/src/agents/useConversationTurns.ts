// A conversation's turns, oldest first, fetched a page of 50 at a time from the oldest (the
// API counts pages back from the most recent): the first turns show while the rest arrive.
// The first request is the most recent page, which holds a short conversation whole; the first
// two pages may already be on their way (conversationStart.ts).
import { useEffect, useState } from 'react';
import type { AgentTurn } from '../api/types';
import { conversationChat } from './agentsApi';
import { takeConversationStart, TURNS_PAGE as PAGE } from './conversationStart';

export interface ConversationTurns {
  readonly turns: AgentTurn[];
  readonly total: number | null;
  readonly done: boolean;
  readonly error: unknown;
}

export function useConversationTurns(projectId: string, conversationId: string): ConversationTurns {
  const [state, setState] = useState<ConversationTurns>({ turns: [], total: null, done: false, error: null });
  useEffect(() => {
    const abort = new AbortController();
    setState({ turns: [], total: null, done: false, error: null });
    const req = { project_id: projectId, conversation_id: conversationId };
    (async () => {
      // The most recent page first: a conversation of at most 50 turns is whole in one request.
      const { head, oldest } = await takeConversationStart(projectId, conversationId, abort.signal);
      const total = head.total_turns;
      if (!head.has_more) {
        setState({ turns: head.turns, total, done: true, error: null });
        return;
      }
      setState((s) => ({ ...s, total }));
      let loaded: AgentTurn[] = [];
      for (let from = 0; from < total; from += PAGE) {
        const limit = Math.min(PAGE, total - from);
        const offset = total - from - limit;
        const page =
          offset === 0 && limit === head.turns.length
            ? head
            : from === 0 && oldest !== null
              ? oldest
              : await conversationChat({ ...req, limit, offset }, abort.signal);
        loaded = [...loaded, ...page.turns];
        const now = loaded;
        setState((s) => ({ ...s, turns: now }));
      }
      setState((s) => ({ ...s, done: true }));
    })().catch((error: unknown) => {
      if (!abort.signal.aborted) setState((s) => ({ ...s, error, done: true }));
    });
    return () => abort.abort();
  }, [projectId, conversationId]);
  return state;
}
