// The USD cost of calls' usage, priced exactly as include_costs prices summary.weave.costs
// (cost-summary.ts), without building the per-call cost blocks: a time series over a million
// calls needs only the sum. Project prices are read once per new llm_id.
import type { CostStore } from '../../storage/costs/cost-store.js';
import type { Micros } from '../../time.js';
import { DEFAULT_COST_UNIT } from './cost-service.js';
import { createCostPricer } from './cost-summary.js';
import { type LlmUsage, usageOf } from './llm-usage.js';
import { costParts } from './token-prices.js';

const isUsd = (unit: string) => unit.toUpperCase() === DEFAULT_COST_UNIT;

export interface UsageCostMeter {
  /** Makes sure the prices of these llm_ids are loaded (one store read for the new ones). */
  load(llmIds: Iterable<string>): Promise<void>;
  /**
   * USD cost of one call's usage (summary.usage as JSON text) for a call started at
   * `startedAt`; the llm_ids must have been loaded. Parts priced in another unit count 0.
   */
  cost(usageJson: string, startedAt: Micros): number;
  /** As cost, for usage already decoded; null when no model of it is priced. */
  costOf(usage: ReadonlyMap<string, LlmUsage>, startedAt: Micros): number | null;
}

export function createUsageCostMeter(store: CostStore, projectId: string): UsageCostMeter {
  const pricer = createCostPricer(store, projectId);
  function costOf(usage: ReadonlyMap<string, LlmUsage>, startedAt: Micros): number | null {
    let total: number | null = null;
    for (const [llmId, u] of usage) {
      const p = pricer.prices(llmId, u, startedAt);
      if (p === null) continue;
      const parts = costParts(u, p);
      total ??= 0;
      if (isUsd(p.promptUnit)) total += parts.prompt + parts.cacheRead + parts.cacheWrite;
      if (isUsd(p.completionUnit)) total += parts.completion;
    }
    return total;
  }
  return {
    load: (llmIds) => pricer.load(llmIds),
    cost: (usageJson, startedAt) => costOf(usageOf(`{"usage":${usageJson}}`), startedAt) ?? 0,
    costOf,
  };
}
