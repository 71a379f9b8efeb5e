// include_costs: summary.weave.costs of queried calls (weave-api.md §3.8). For each llm_id
// in a call's summary.usage, one price is chosen among the project's prices and the default
// prices of that llm_id, ranked by
//   1. effective_date <= the call's started_at first (a price in force when the call ran),
//   2. then project prices before default prices,
//   3. then the newest effective_date,
// (then the newest created_at, so equal candidates give one stable answer). llm_ids without
// any price are left out; a call with nothing priced gets no `costs` key.
// Prices are looked up once per chunk of calls, not per call.
import type { StoredCall } from '../storage/call-store.js';
import type { CostStore, PriceRow } from '../storage/cost-store.js';
import { formatTimestamp } from '../time.js';

/** Token counts of one llm_id as the cost block reports them. */
export interface UsageCounts {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly requests: number;
  readonly total_tokens: number;
}

export type CallCosts = Record<string, Record<string, unknown>>;

const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Python's int() on a usage count, as Weave applies it: missing or unreadable is 0. */
function count(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v);
  return 0;
}

/**
 * summary.usage by llm_id. Both spellings of token counts are summed: OpenAI-style
 * prompt/completion_tokens and Anthropic-style input/output_tokens. total_tokens stays as reported.
 */
export function usageOf(summaryJson: string | null): Map<string, UsageCounts> {
  const out = new Map<string, UsageCounts>();
  if (!summaryJson) return out;
  const usage = (JSON.parse(summaryJson) as Record<string, unknown> | null)?.usage;
  if (!isDict(usage)) return out;
  for (const [llmId, u] of Object.entries(usage)) {
    if (!isDict(u)) continue;
    out.set(llmId, {
      prompt_tokens: count(u.prompt_tokens) + count(u.input_tokens),
      completion_tokens: count(u.completion_tokens) + count(u.output_tokens),
      requests: count(u.requests),
      total_tokens: count(u.total_tokens),
    });
  }
  return out;
}

/** The price that applies to a call started at `startedAt`, or undefined when there is none. */
export function pickPrice(candidates: readonly PriceRow[], projectId: string, startedAt: number): PriceRow | undefined {
  const rank = (r: PriceRow): readonly number[] => [
    r.effective_date <= startedAt ? 0 : 1,
    r.pricing_level === 'project' && r.pricing_level_id === projectId ? 0 : 1,
    -r.effective_date,
    -r.created_at,
  ];
  const before = (a: readonly number[], b: readonly number[]) => {
    const i = a.findIndex((x, j) => x !== b[j]);
    return i >= 0 && a[i]! < b[i]!;
  };
  let best: PriceRow | undefined;
  let bestRank: readonly number[] = [];
  for (const r of candidates) {
    const k = rank(r);
    if (!best || before(k, bestRank)) {
      best = r;
      bestRank = k;
    }
  }
  return best;
}

function costEntry(u: UsageCounts, p: PriceRow): Record<string, unknown> {
  return {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    requests: u.requests,
    total_tokens: u.total_tokens,
    prompt_token_cost: p.prompt_token_cost,
    completion_token_cost: p.completion_token_cost,
    prompt_tokens_total_cost: u.prompt_tokens * p.prompt_token_cost,
    completion_tokens_total_cost: u.completion_tokens * p.completion_token_cost,
    prompt_token_cost_unit: p.prompt_token_cost_unit,
    completion_token_cost_unit: p.completion_token_cost_unit,
    effective_date: formatTimestamp(p.effective_date),
    provider_id: p.provider_id,
    pricing_level: p.pricing_level,
    pricing_level_id: p.pricing_level_id,
    created_at: formatTimestamp(p.created_at),
    created_by: p.created_by,
  };
}

/** summary.weave.costs for each call (null when nothing is priced), with one price lookup for the chunk. */
export async function costsOfCalls(
  store: CostStore, projectId: string, calls: readonly Pick<StoredCall, 'summary' | 'started_at'>[],
): Promise<(CallCosts | null)[]> {
  const usages = calls.map((c) => usageOf(c.summary));
  const llmIds = [...new Set(usages.flatMap((u) => [...u.keys()]))];
  if (llmIds.length === 0) return calls.map(() => null);
  const byLlm = new Map<string, PriceRow[]>();
  for (const row of await store.findApplicablePrices(projectId, llmIds)) {
    (byLlm.get(row.llm_id) ?? byLlm.set(row.llm_id, []).get(row.llm_id)!).push(row);
  }
  return calls.map((c, i) => {
    const costs: CallCosts = {};
    for (const [llmId, u] of usages[i]!) {
      const price = pickPrice(byLlm.get(llmId) ?? [], projectId, c.started_at);
      if (price) costs[llmId] = costEntry(u, price);
    }
    return Object.keys(costs).length > 0 ? costs : null;
  });
}
