// The USD cost of calls' usage, priced exactly as include_costs prices summary.weave.costs
// (cost-summary.ts: usageOf for the token counts, pickPrice for the price in force when the
// call started), without building the per-call cost blocks: a time series over a million
// calls needs only the sum. Prices are read once per new llm_id, not per call or per chunk.
import type { CostStore, PriceRow } from '../storage/cost-store.js';
import type { Micros } from '../time.js';
import { DEFAULT_COST_UNIT } from './cost-service.js';
import { pickPrice, usageOf } from './cost-summary.js';

/** The prices of one llm_id and the price chosen per interval between their effective dates. */
interface LlmPrices {
  readonly candidates: readonly PriceRow[];
  /** Distinct effective dates, ascending. */
  readonly dates: readonly Micros[];
  /** Chosen price per interval index (see intervalOf); undefined: not chosen yet; null: none applies. */
  readonly chosen: (PriceRow | null | undefined)[];
}

/** Index i such that dates[i - 1] <= t < dates[i] (0: before every date). */
function intervalOf(dates: readonly Micros[], t: Micros): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dates[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const isUsd = (unit: string) => unit.toUpperCase() === DEFAULT_COST_UNIT;

export interface UsageCostMeter {
  /** Makes sure the prices of these llm_ids are loaded (one store read for the new ones). */
  load(llmIds: Iterable<string>): Promise<void>;
  /**
   * USD cost of one call's usage (summary.usage as JSON text) for a call started at
   * `startedAt`; the llm_ids must have been loaded. Parts priced in another unit count 0.
   */
  cost(usageJson: string, startedAt: Micros): number;
}

export function createUsageCostMeter(store: CostStore, projectId: string): UsageCostMeter {
  const prices = new Map<string, LlmPrices>();

  /**
   * pickPrice's ranking depends on the call's start only through which prices are already
   * in force (effective_date <= start): between two consecutive effective dates the choice is
   * the same, so it is made once per interval.
   */
  function priceAt(p: LlmPrices, startedAt: Micros): PriceRow | null {
    const i = intervalOf(p.dates, startedAt);
    let chosen = p.chosen[i];
    if (chosen === undefined) chosen = p.chosen[i] = pickPrice(p.candidates, projectId, startedAt) ?? null;
    return chosen;
  }

  return {
    async load(llmIds) {
      const missing = [...new Set(llmIds)].filter((id) => !prices.has(id));
      if (missing.length === 0) return;
      const byLlm = new Map<string, PriceRow[]>(missing.map((id) => [id, []]));
      for (const row of await store.findApplicablePrices(projectId, missing)) byLlm.get(row.llm_id)?.push(row);
      for (const [id, candidates] of byLlm) {
        const dates = [...new Set(candidates.map((c) => c.effective_date))].sort((a, b) => a - b);
        prices.set(id, { candidates, dates, chosen: new Array<PriceRow | null | undefined>(dates.length + 1) });
      }
    },
    cost(usageJson, startedAt) {
      let total = 0;
      for (const [llmId, u] of usageOf(`{"usage":${usageJson}}`)) {
        const p = prices.get(llmId);
        const price = p === undefined ? null : priceAt(p, startedAt);
        if (price === null) continue;
        if (isUsd(price.prompt_token_cost_unit)) total += u.prompt_tokens * price.prompt_token_cost;
        if (isUsd(price.completion_token_cost_unit)) total += u.completion_tokens * price.completion_token_cost;
      }
      return total;
    },
  };
}
