// What one trace adds to the agent rollups, per (owner agent, version, model): the figures of
// /agents/query and /agents/agent-versions/query, kept on write so that no read scans spans.
// Engine-neutral: each engine computes a trace's contributions after settling its owners,
// takes away the ones it stored for the trace before, and adds these (rollups are sums).
//
// Rules (docs/agents.md): a span counts for its owner (span-settle.ts: the nearest invocation
// ancestor-or-self); an invocation is an invoke_agent span or an orchestrator's run, its
// duration the invocation's wall clock, an error an invocation that ended in ERROR; tokens count
// on every span whose tokens_counted the settlement left at 1; the model is the response model,
// else the request model, else ''.
import { isInvocation } from './span-operations.js';

export interface RollupSpan {
  readonly span_id: string;
  readonly parent_span_id: string | null;
  readonly operation_name: string | null;
  readonly owner_agent_name: string | null;
  readonly owner_agent_version: string | null;
  readonly request_model: string | null;
  readonly response_model: string | null;
  readonly conversation_id: string | null;
  readonly started_at: number;
  readonly ended_at: number | null;
  readonly status_code: string;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly reasoning_tokens: number | null;
  readonly cache_creation_input_tokens: number | null;
  readonly cache_read_input_tokens: number | null;
  readonly tokens_counted: number;
}

export const ROLLUP_SUMS = [
  'span_count',
  'invocation_count',
  'error_count',
  'total_duration_ms',
  'input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  /** Invocations that ran other agents (span-settle.ts): an agent with any is an orchestrator. */
  'orchestration_count',
] as const;
export type RollupSum = (typeof ROLLUP_SUMS)[number];

export interface Contribution {
  readonly agent_name: string;
  /** '' when the agent sends no version. */
  readonly agent_version: string;
  readonly model: string;
  /** The conversation the trace belongs to ('' when none), for the agents' conversation counts. */
  readonly conversation_id: string;
  readonly sums: Record<RollupSum, number>;
  readonly first_seen: number;
  readonly last_seen: number;
}

export const TOKEN_COLUMNS = [
  'input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
] as const;

export const contributionKey = (c: Pick<Contribution, 'agent_name' | 'agent_version' | 'model'>) =>
  JSON.stringify([c.agent_name, c.agent_version, c.model]);

/**
 * The contributions of one trace's spans (every span of the trace, settled by span-settle.ts);
 * `orchestrators` are the span ids of its orchestrator invocations.
 */
export function traceContributions(spans: readonly RollupSpan[], orchestrators: ReadonlySet<string>): Contribution[] {
  const first = [...spans].filter((s) => s.conversation_id !== null).sort((a, b) => a.started_at - b.started_at)[0];
  const conversation = first?.conversation_id ?? '';
  const out = new Map<string, { -readonly [K in keyof Contribution]: Contribution[K] }>();
  for (const s of spans) {
    if (s.owner_agent_name === null) continue;
    const model = s.response_model ?? s.request_model ?? '';
    const key = contributionKey({ agent_name: s.owner_agent_name, agent_version: s.owner_agent_version ?? '', model });
    let c = out.get(key);
    if (c === undefined) {
      c = {
        agent_name: s.owner_agent_name,
        agent_version: s.owner_agent_version ?? '',
        model,
        conversation_id: conversation,
        sums: Object.fromEntries(ROLLUP_SUMS.map((k) => [k, 0])) as Record<RollupSum, number>,
        first_seen: s.started_at,
        last_seen: s.ended_at ?? s.started_at,
      };
      out.set(key, c);
    }
    c.sums.span_count += 1;
    c.first_seen = Math.min(c.first_seen, s.started_at);
    c.last_seen = Math.max(c.last_seen, s.ended_at ?? s.started_at);
    if (isInvocation(s.operation_name)) {
      c.sums.invocation_count += 1;
      if (orchestrators.has(s.span_id)) c.sums.orchestration_count += 1;
      if (s.status_code === 'ERROR') c.sums.error_count += 1;
      if (s.ended_at !== null) c.sums.total_duration_ms += Math.max(0, Math.floor((s.ended_at - s.started_at) / 1000));
    }
    if (s.tokens_counted !== 0) for (const k of TOKEN_COLUMNS) c.sums[k] += s[k] ?? 0;
  }
  return [...out.values()];
}
