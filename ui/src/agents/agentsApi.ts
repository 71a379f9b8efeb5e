// The Agents views' reads, all through the public agent API (/agents/*).
import { postJson } from '../api/client';
import type {
  AgentConversationChatReq,
  AgentConversationChatRes,
  AgentSearchReq,
  AgentSearchRes,
  AgentSpanStatsReq,
  AgentSpanStatsRes,
  AgentSpansQueryReq,
  AgentSpansQueryRes,
  AgentsQueryReq,
  AgentsQueryRes,
  AgentVersionsQueryReq,
  AgentVersionsQueryRes,
  Query,
} from '../api/types';

export type SpanGroup = AgentSpansQueryRes['groups'][number] & {
  group_keys: Record<string, string | null>;
  span_count: number;
  turn_count: number;
  conversation_count: number;
  invocation_count: number;
  error_count: number;
  total_input_tokens: number;
  total_output_tokens: number;
  total_duration_ms: number;
  first_seen: string | null;
  last_seen: string | null;
  total_cost_usd: number | null;
  agent_names: (string | null)[];
  conversation_names: (string | null)[];
  request_models: (string | null)[];
  first_message: { text: string } | null;
  last_message: { text: string } | null;
};

type Expr = Record<string, unknown>;
export const eq = (field: string, value: string | null): Expr => ({ $eq: [{ $getField: field }, { $literal: value }] });
export const inList = (field: string, values: readonly string[]): Expr => ({
  $in: [{ $getField: field }, values.map((v) => ({ $literal: v }))],
});
/** The conjunction of the parts as a query (null when there is none). */
export const and = (...parts: Expr[]): Query | null =>
  parts.length === 0 ? null : ({ $expr: parts.length === 1 ? parts[0]! : { $and: parts } } as Query);

export const queryAgents = (project_id: string, signal?: AbortSignal) =>
  postJson<AgentsQueryRes>(
    '/agents/query',
    { project_id, include_costs: true, limit: 1000 } satisfies AgentsQueryReq,
    signal,
  );

/** One agent's row (with an orchestrator's members), or undefined when it has none. */
export const queryAgent = async (project_id: string, agent_name: string, signal?: AbortSignal) =>
  (
    await postJson<AgentsQueryRes>(
      '/agents/query',
      { project_id, filters: { agent_name }, include_costs: true, limit: 1 } satisfies AgentsQueryReq,
      signal,
    )
  ).agents[0];

/** The operations of an invocation: an agent's run, or an orchestrator's (docs/agents.md). */
export const INVOCATION_OPERATIONS = ['invoke_agent', 'invoke_swarm', 'invoke_workflow'];

export const queryVersions = (project_id: string, agent_name: string, signal?: AbortSignal) =>
  postJson<AgentVersionsQueryRes>(
    '/agents/agent-versions/query',
    { project_id, agent_name, include_costs: true, limit: 1000 } satisfies AgentVersionsQueryReq,
    signal,
  );

export async function spanGroups(req: AgentSpansQueryReq, signal?: AbortSignal): Promise<SpanGroup[]> {
  return (await postJson<AgentSpansQueryRes>('/agents/spans/query', req, signal)).groups as SpanGroup[];
}

/** Ungrouped span rows (AgentSpanSchema). */
export async function spanRows(req: AgentSpansQueryReq, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
  return (await postJson<AgentSpansQueryRes>('/agents/spans/query', req, signal)).spans;
}

export const spanStats = (req: AgentSpanStatsReq, signal?: AbortSignal) =>
  postJson<AgentSpanStatsRes>('/agents/spans/stats', req, signal);

export const searchMessages = (req: AgentSearchReq, signal?: AbortSignal) =>
  postJson<AgentSearchRes>('/agents/search', req, signal);

export const conversationChat = (req: AgentConversationChatReq, signal?: AbortSignal) =>
  postJson<AgentConversationChatRes>('/agents/conversations/chat', req, signal);

const DAY = 86_400_000;

/**
 * p50 and p95 of invocation wall clocks (an orchestrator's runs too) over the last 30 days, by the key (owner agent, or its
 * versions): one bucket over exactly the window.
 */
export async function latencies(
  project_id: string,
  key: 'owner_agent_name' | 'owner_agent_version',
  agent: string | null,
  signal?: AbortSignal,
): Promise<Map<string, { p50: number | null; p95: number | null }>> {
  const now = Date.now();
  const res = await spanStats(
    {
      project_id,
      start: new Date(now - 30 * DAY).toISOString(),
      end: new Date(now).toISOString(),
      granularity: 30 * 86_400,
      group_by: [{ key, alias: 'key' }],
      group_limit: 1000,
      query: and(
        inList('operation_name', INVOCATION_OPERATIONS),
        ...(agent === null ? [] : [eq('owner_agent_name', agent)]),
      ),
      metrics: [
        { alias: 'ms', value_type: 'number', value: { source: 'derived', key: 'duration_ms' }, percentiles: [50, 95] },
      ],
    },
    signal,
  );
  const out = new Map<string, { p50: number | null; p95: number | null }>();
  for (const r of res.rows)
    out.set(String(r.key ?? ''), {
      p50: (r.p50_ms as number | null) ?? null,
      p95: (r.p95_ms as number | null) ?? null,
    });
  return out;
}
