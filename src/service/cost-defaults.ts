// The default LLM prices: src/data/default-llm-prices.json, a hand-edited list, loaded into
// the price table at every start. Each entry's id is derived from (provider, llm_id,
// effective_date), so re-loading is an upsert: a corrected figure updates its row, a new
// entry (e.g. a later effective_date for a price change) adds a row, a removed entry is
// deleted. A malformed file stops the server at startup rather than pricing calls wrongly.
import { createHash } from 'node:crypto';
import defaultPricesFile from '../data/default-llm-prices.json' with { type: 'json' };
import { DEFAULT_PRICING_LEVEL_ID, type CostStore, type PriceRow } from '../storage/cost-store.js';
import { nowMicros, tryParseTimestamp, type Micros } from '../time.js';
import type { Store } from '../storage/store.js';

export const DEFAULT_PRICES_CREATED_BY = 'system';
const FILE = 'src/data/default-llm-prices.json';

/** One entry of the file, as written by hand. */
export interface DefaultPriceEntry {
  readonly provider: string;
  readonly llm_id: string;
  /** USD per token. */
  readonly prompt_token_cost: number;
  readonly completion_token_cost: number;
  /** A date ("2025-08-07", midnight UTC) or an ISO 8601 date-time. */
  readonly effective_date: string;
}

/** A name-based UUID (version 8, RFC 9562) from SHA-256: the same entry always gets the same id. */
export function defaultPriceId(provider: string, llmId: string, effectiveDate: Micros): string {
  const b = createHash('sha256').update(['weft-default-price', provider, llmId, String(effectiveDate)].join('\u0000')).digest();
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function parseDate(s: string): Micros | null {
  return tryParseTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
}

const isName = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;
const isPrice = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Validates the entries and turns them into default-level price rows; throws naming the bad entry. */
export function defaultPriceRows(entries: unknown, createdAt: Micros): PriceRow[] {
  if (!Array.isArray(entries)) throw new Error(`${FILE}: "prices" must be an array`);
  const seen = new Set<string>();
  return entries.map((e: Partial<Record<keyof DefaultPriceEntry, unknown>>, i) => {
    const where = `${FILE}: prices[${i}]`;
    if (typeof e !== 'object' || e === null) throw new Error(`${where} must be an object`);
    if (!isName(e.provider) || !isName(e.llm_id)) throw new Error(`${where}: provider and llm_id must be non-empty strings`);
    if (!isPrice(e.prompt_token_cost) || !isPrice(e.completion_token_cost)) {
      throw new Error(`${where} (${e.llm_id}): prompt_token_cost and completion_token_cost must be numbers >= 0 (USD per token)`);
    }
    const effective = typeof e.effective_date === 'string' ? parseDate(e.effective_date) : null;
    if (effective === null) throw new Error(`${where} (${e.llm_id}): effective_date must be a date (YYYY-MM-DD) or an ISO 8601 date-time`);
    const id = defaultPriceId(e.provider, e.llm_id, effective);
    if (seen.has(id)) throw new Error(`${where}: duplicate entry for ${e.provider} ${e.llm_id} at ${e.effective_date}`);
    seen.add(id);
    return {
      id,
      pricing_level: 'default',
      pricing_level_id: DEFAULT_PRICING_LEVEL_ID,
      provider_id: e.provider,
      llm_id: e.llm_id,
      effective_date: effective,
      prompt_token_cost: e.prompt_token_cost,
      completion_token_cost: e.completion_token_cost,
      prompt_token_cost_unit: 'USD',
      completion_token_cost_unit: 'USD',
      created_by: DEFAULT_PRICES_CREATED_BY,
      created_at: createdAt,
    };
  });
}

/** Loads the shipped price list into the store (see the file header); run once at startup. */
export async function syncDefaultPrices(store: CostStore, entries: unknown = defaultPricesFile.prices, now: Micros = nowMicros()): Promise<void> {
  await store.syncDefaultPrices(defaultPriceRows(entries, now));
}

/**
 * The store with the shipped price list being loaded into it in the background: startup does
 * not wait for the write, and every read of prices waits for it (so include_costs and
 * /cost/query always see the shipped prices). A failed load is reported and reads go on with
 * the prices already stored.
 */
export function withDefaultPrices(store: Store, onError: (err: unknown) => void): Store {
  const loaded = syncDefaultPrices(store.costs).catch(onError);
  const costs: CostStore = {
    ...store.costs,
    query: async (q) => (await loaded, store.costs.query(q)),
    findApplicablePrices: async (projectId, llmIds) => (await loaded, store.costs.findApplicablePrices(projectId, llmIds)),
  };
  return { ...store, costs, close: () => store.close() };
}
