// include_costs: summary.weave.costs of queried calls (weave-api.md §3.8). For each llm_id in
// a call's summary.usage (read by llm-usage.ts), one price applies, the first of:
//   1. the project's price in force when the call started (newest effective_date <= started_at,
//      then newest created_at),
//   2. the default price: the catalogue's (default-llm-prices.ts) for that time,
//   3. the project's price not yet in force (newest effective_date), as Weave falls back.
// llm_ids without any price are left out; a call with nothing priced gets no `costs` key.
// Project prices are read once per llm_id per pricer (one pricer per request or chunk).
import type { StoredCall } from '../../storage/calls/call-store.js';
import type { CostStore, PriceRow } from '../../storage/costs/cost-store.js';
import type { Micros } from '../../time.js';
import { defaultPrice, type DefaultPrice } from './default-llm-prices.js';
import { usageOf, type LlmUsage } from './llm-usage.js';
import { costEntryJson, defaultTokenPrices, rowTokenPrices, type TokenPrices } from './token-prices.js';

export interface CostPricer {
  /** Reads the project prices of the llm_ids not read yet (one store read). */
  load(llmIds: Iterable<string>): Promise<void>;
  /** The prices for this usage of a loaded llm_id in a call started at `startedAt`; null: none. */
  prices(llmId: string, usage: LlmUsage, startedAt: Micros): TokenPrices | null;
}

/** Index of the last row with effective_date <= t in rows sorted by (effective_date, created_at); -1: none. */
function lastInForce(rows: readonly PriceRow[], t: Micros): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.effective_date <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

export function createCostPricer(store: CostStore, projectId: string): CostPricer {
  const project = new Map<string, readonly PriceRow[]>();
  // The same prices are handed out again (their rendered metadata is cached per object):
  // per project row, and per catalogue price (when it has no tiers, its prices do not
  // depend on the usage).
  const rowPrices = new Map<PriceRow, TokenPrices>();
  const flatDefaults = new Map<DefaultPrice, TokenPrices | null>();
  const ofRow = (r: PriceRow) => rowPrices.get(r) ?? rowPrices.set(r, rowTokenPrices(r)).get(r)!;
  const ofDefault = (d: DefaultPrice, usage: LlmUsage): TokenPrices | null => {
    const known = flatDefaults.get(d);
    if (known !== undefined) return known;
    const p = defaultTokenPrices(d, usage);
    if (!Object.values(d.price).some((v) => typeof v === 'object')) flatDefaults.set(d, p);
    return p;
  };
  return {
    async load(llmIds) {
      const missing = [...new Set(llmIds)].filter((id) => !project.has(id));
      if (missing.length === 0) return;
      const byLlm = new Map<string, PriceRow[]>(missing.map((id) => [id, []]));
      for (const row of await store.findProjectPrices(projectId, missing)) byLlm.get(row.llm_id)?.push(row);
      for (const [id, rows] of byLlm)
        project.set(
          id,
          rows.sort((a, b) => a.effective_date - b.effective_date || a.created_at - b.created_at),
        );
    },
    prices(llmId, usage, startedAt) {
      const rows = project.get(llmId) ?? [];
      const i = lastInForce(rows, startedAt);
      if (i >= 0) return ofRow(rows[i]!);
      const d = defaultPrice(llmId, startedAt);
      const prices = d === null ? null : ofDefault(d, usage);
      if (prices !== null) return prices;
      return rows.length > 0 ? ofRow(rows[rows.length - 1]!) : null;
    },
  };
}

/** summary.weave.costs of each call as JSON text (null when nothing is priced), with one price read for the chunk. */
export async function costsOfCalls(
  store: CostStore,
  projectId: string,
  calls: readonly Pick<StoredCall, 'summary' | 'started_at'>[],
): Promise<(string | null)[]> {
  const usages = calls.map((c) => usageOf(c.summary));
  const llmIds = new Set(usages.flatMap((u) => [...u.keys()]));
  if (llmIds.size === 0) return calls.map(() => null);
  const pricer = createCostPricer(store, projectId);
  await pricer.load(llmIds);
  return calls.map((c, i) => {
    const entries: string[] = [];
    for (const [llmId, u] of usages[i]!) {
      const p = pricer.prices(llmId, u, c.started_at);
      if (p) entries.push(`${JSON.stringify(llmId)}:${costEntryJson(u, p)}`);
    }
    return entries.length > 0 ? `{${entries.join(',')}}` : null;
  });
}
