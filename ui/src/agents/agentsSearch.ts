// The Agents views' URL state: the cards' order, the conversation list's search and filters,
// and the turn opened as a waterfall.
export const AGENT_SORTS = ['last_seen', 'invocations', 'tokens', 'errors', 'cost', 'name'] as const;
export type AgentSort = (typeof AGENT_SORTS)[number];

export interface AgentsSearch {
  sort?: AgentSort;
}

export function parseAgentsSearch(raw: Record<string, unknown>): AgentsSearch {
  return (AGENT_SORTS as readonly unknown[]).includes(raw.sort) ? { sort: raw.sort as AgentSort } : {};
}

/** Quick time ranges of the conversations list, newest window first. */
export const RANGES = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type RangeName = keyof typeof RANGES;

export interface ConversationsSearch {
  q?: string;
  agent?: string;
  version?: string;
  model?: string;
  status?: 'error' | 'ok';
  range?: RangeName;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export function parseConversationsSearch(raw: Record<string, unknown>): ConversationsSearch {
  const out: ConversationsSearch = {};
  for (const k of ['q', 'agent', 'version', 'model'] as const) {
    const v = text(raw[k]);
    if (v !== undefined) out[k] = v;
  }
  if (raw.status === 'error' || raw.status === 'ok') out.status = raw.status;
  if (typeof raw.range === 'string' && raw.range in RANGES) out.range = raw.range as RangeName;
  return out;
}

export interface ConversationSearch {
  turn?: string;
}

export function parseConversationSearch(raw: Record<string, unknown>): ConversationSearch {
  const turn = text(raw.turn);
  return turn === undefined ? {} : { turn };
}
