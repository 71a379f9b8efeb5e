// What the views show of a call, read from its stored shape: status, latency, tokens, cost.
import type { Call } from '../api/types';

export type CallStatus = 'success' | 'error' | 'running' | 'descendant_error';

interface WeaveSummary {
  status?: string;
  feedback?: { feedback_type?: string; payload?: { emoji?: string } }[];
  latency_ms?: number;
  costs?: Record<string, CostBlock>;
}

/** One model's entry of summary.weave.costs (the fields the views read). */
export interface CostBlock {
  prompt_tokens?: number;
  completion_tokens?: number;
  cache_read_input_tokens?: number;
  prompt_tokens_total_cost?: number;
  completion_tokens_total_cost?: number;
  cache_read_input_tokens_total_cost?: number;
  cache_creation_input_tokens_total_cost?: number;
}

/** What the tokens of one cost block are billed: uncached input, cache reads and writes, output. */
export function blockCost(c: CostBlock): number {
  return (
    (c.prompt_tokens_total_cost ?? 0) +
    (c.completion_tokens_total_cost ?? 0) +
    (c.cache_read_input_tokens_total_cost ?? 0) +
    (c.cache_creation_input_tokens_total_cost ?? 0)
  );
}

function weaveSummary(call: Pick<Call, 'summary'>): WeaveSummary {
  const w = (call.summary as { weave?: unknown } | undefined)?.weave;
  return typeof w === 'object' && w !== null ? (w as WeaveSummary) : {};
}

export function callStatus(call: Pick<Call, 'summary' | 'exception' | 'ended_at'>): CallStatus {
  const s = weaveSummary(call).status;
  if (s === 'success' || s === 'error' || s === 'running' || s === 'descendant_error') return s;
  if (call.exception) return 'error';
  return call.ended_at ? 'success' : 'running';
}

export function latencyMs(call: Pick<Call, 'started_at' | 'ended_at' | 'summary'>): number | null {
  const l = weaveSummary(call).latency_ms;
  if (typeof l === 'number') return l;
  if (!call.ended_at) return null;
  return new Date(call.ended_at).getTime() - new Date(call.started_at).getTime();
}

/** A usage count as the server reads it (Python's int()): missing or unreadable is 0. */
function count(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v);
  return 0;
}

/**
 * Total tokens over every model in summary.usage, as the server counts them when it sorts by
 * summary.weave.total_tokens: each model's reported total, else every input token (cache
 * reads and writes included) plus every output token. Null when no model has usage.
 */
export function totalTokens(call: Pick<Call, 'summary'>): number | null {
  const usage = (call.summary as { usage?: unknown } | undefined)?.usage;
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return null;
  let total: number | null = null;
  for (const u of Object.values(usage as Record<string, Record<string, unknown>>)) {
    if (typeof u !== 'object' || u === null || Array.isArray(u)) continue;
    const reported = count(u.total_tokens) + count(u.total_token_count);
    // Anthropic's own shape reports cache tokens beside input_tokens, not inside it.
    const cache =
      'prompt_tokens' in u || 'prompt_token_count' in u
        ? 0
        : count(u.cache_read_input_tokens) + count(u.cache_creation_input_tokens);
    const input = count(u.prompt_tokens) + count(u.input_tokens) + count(u.prompt_token_count) + cache;
    const output =
      count(u.completion_tokens) +
      count(u.output_tokens) +
      count(u.candidates_token_count) +
      count(u.thoughts_token_count);
    total = (total ?? 0) + (reported > 0 ? reported : input + output);
  }
  return total;
}

/** Total cost in USD over every model priced in summary.weave.costs (include_costs). */
export function totalCost(call: Pick<Call, 'summary'>): number | null {
  const costs = weaveSummary(call).costs;
  if (!costs) return null;
  let total = 0;
  for (const c of Object.values(costs)) total += blockCost(c);
  return total;
}

/** Reactions (emoji -> count) and the number of other feedback rows (include_feedback). */
export function feedbackCounts(call: Pick<Call, 'summary'>): { reactions: [string, number][]; other: number } {
  const counts = new Map<string, number>();
  let other = 0;
  for (const f of weaveSummary(call).feedback ?? []) {
    if (f.feedback_type === 'wandb.reaction.1' && typeof f.payload?.emoji === 'string')
      counts.set(f.payload.emoji, (counts.get(f.payload.emoji) ?? 0) + 1);
    else other++;
  }
  return { reactions: [...counts], other };
}
