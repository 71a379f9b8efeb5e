// A conversation's first two pages (the most recent, which tells the count, then the oldest),
// asked for as soon as its route matches (router.tsx loader) while the page's code still loads;
// useConversationTurns takes them from here. On the 1,000-turn bench conversation this moved
// the requests ~0.5 s earlier. A start nobody takes within a few seconds is not used.
import type { AgentConversationChatRes } from '../api/types';
import { conversationChat } from './agentsApi';

export const TURNS_PAGE = 50;
const FRESH_MS = 5_000;

export interface ConversationStart {
  /** The most recent page. */
  readonly head: AgentConversationChatRes;
  /** The oldest page, when the head does not hold every turn. */
  readonly oldest: AgentConversationChatRes | null;
}

const started = new Map<string, { at: number; start: Promise<ConversationStart> }>();
const keyOf = (projectId: string, conversationId: string) => JSON.stringify([projectId, conversationId]);

async function fetchStart(projectId: string, conversationId: string, signal?: AbortSignal) {
  const req = { project_id: projectId, conversation_id: conversationId };
  const head = await conversationChat({ ...req, limit: TURNS_PAGE }, signal);
  if (!head.has_more) return { head, oldest: null };
  const total = head.total_turns;
  const limit = Math.min(TURNS_PAGE, total);
  return { head, oldest: await conversationChat({ ...req, limit, offset: total - limit }, signal) };
}

/** Starts fetching the first pages (the route's loader). */
export function prefetchConversationStart(projectId: string, conversationId: string): void {
  const key = keyOf(projectId, conversationId);
  const s = started.get(key);
  if (s && Date.now() - s.at < FRESH_MS) return;
  const start = fetchStart(projectId, conversationId);
  start.catch(() => started.delete(key));
  started.set(key, { at: Date.now(), start });
}

/** The first pages: those the loader started if still fresh (taken once), else fetched now. */
export function takeConversationStart(
  projectId: string,
  conversationId: string,
  signal: AbortSignal,
): Promise<ConversationStart> {
  const key = keyOf(projectId, conversationId);
  const s = started.get(key);
  started.delete(key);
  return s && Date.now() - s.at < FRESH_MS ? s.start : fetchStart(projectId, conversationId, signal);
}
