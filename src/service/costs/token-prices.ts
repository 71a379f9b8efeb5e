// The per-token prices that apply to one llm_id's usage in one call, from a project price
// (/cost/create: prompt and completion only) or from the default catalogue (cache and tiered
// prices), and the cost block of summary.weave.costs built from them. The block keeps
// Weave's fields and adds the cache fields of the newest Weave; its *_total_cost fields sum
// to what the provider bills for these tokens.
import type { PriceRow } from '../../storage/costs/cost-store.js';
import { formatTimestamp } from '../../time.js';
import type { DefaultPrice } from './default-llm-prices.js';
import type { LlmUsage } from './llm-usage.js';

/** USD (or the unit given) per token. Cache prices equal the prompt price where none is set. */
export interface TokenPrices {
  readonly prompt: number;
  readonly completion: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly promptUnit: string;
  readonly completionUnit: string;
  readonly effective_date: string | null;
  readonly provider_id: string;
  readonly pricing_level: string;
  readonly pricing_level_id: string;
  readonly created_at: string | null;
  readonly created_by: string;
}

type PerMillion = DefaultPrice['price'][string];

/** A catalogue price per token; a tiered one at the tier the call's input tokens reach (above its start). */
function perToken(p: PerMillion, inputTokens: number): number | null {
  if (p === undefined) return null;
  if (typeof p === 'number') return p / 1e6;
  let v = p.base;
  for (const t of p.tiers) if (inputTokens > t.start) v = t.price;
  return v / 1e6;
}

export function defaultTokenPrices(d: DefaultPrice, usage: LlmUsage): TokenPrices | null {
  const input = perToken(d.price.input_mtok, usage.prompt_tokens);
  const output = perToken(d.price.output_mtok, usage.prompt_tokens);
  if (input === null && output === null) return null;
  const prompt = input ?? 0;
  return {
    prompt,
    completion: output ?? 0,
    cacheRead: perToken(d.price.cache_read_mtok, usage.prompt_tokens) ?? prompt,
    cacheWrite: perToken(d.price.cache_write_mtok, usage.prompt_tokens) ?? prompt,
    promptUnit: 'USD',
    completionUnit: 'USD',
    effective_date: d.effective_date === null ? null : formatTimestamp(d.effective_date),
    provider_id: d.provider_id,
    pricing_level: 'default',
    pricing_level_id: 'default',
    created_at: null,
    created_by: d.source,
  };
}

export function rowTokenPrices(r: PriceRow): TokenPrices {
  return {
    prompt: r.prompt_token_cost,
    completion: r.completion_token_cost,
    cacheRead: r.prompt_token_cost,
    cacheWrite: r.prompt_token_cost,
    promptUnit: r.prompt_token_cost_unit,
    completionUnit: r.completion_token_cost_unit,
    effective_date: formatTimestamp(r.effective_date),
    provider_id: r.provider_id,
    pricing_level: r.pricing_level,
    pricing_level_id: r.pricing_level_id,
    created_at: formatTimestamp(r.created_at),
    created_by: r.created_by,
  };
}

/** The four parts of the bill, in the prompt's unit (the first three) and the completion's. */
export function costParts(
  u: LlmUsage,
  p: TokenPrices,
): { prompt: number; cacheRead: number; cacheWrite: number; completion: number } {
  const uncached = Math.max(0, u.prompt_tokens - u.cache_read_input_tokens - u.cache_creation_input_tokens);
  return {
    prompt: uncached * p.prompt,
    cacheRead: u.cache_read_input_tokens * p.cacheRead,
    cacheWrite: u.cache_creation_input_tokens * p.cacheWrite,
    completion: u.completion_tokens * p.completion,
  };
}

/** A finite number as JSON (never NaN or Infinity, which JSON has not). */
const num = (n: number) => (Number.isFinite(n) ? String(n) : 'null');

/**
 * The cost block as JSON text: the same keys and values as JSON.stringify of the block
 * object, written directly (a streamed page of 100 calls renders hundreds of these).
 */
export function costEntryJson(u: LlmUsage, p: TokenPrices): string {
  const parts = costParts(u, p);
  return (
    `{"prompt_tokens":${num(u.prompt_tokens)},"completion_tokens":${num(u.completion_tokens)},` +
    `"cache_read_input_tokens":${num(u.cache_read_input_tokens)},"cache_creation_input_tokens":${num(u.cache_creation_input_tokens)},` +
    `"requests":${num(u.requests)},"total_tokens":${num(u.total_tokens)},` +
    `"prompt_tokens_total_cost":${num(parts.prompt)},"completion_tokens_total_cost":${num(parts.completion)},` +
    `"cache_read_input_tokens_total_cost":${num(parts.cacheRead)},"cache_creation_input_tokens_total_cost":${num(parts.cacheWrite)},` +
    `${metaJson(p)}}`
  );
}

const metas = new WeakMap<TokenPrices, string>();

/** The fields that depend on the price alone, rendered once per TokenPrices. */
function metaJson(p: TokenPrices): string {
  let m = metas.get(p);
  if (m === undefined) {
    const meta = {
      prompt_token_cost: p.prompt,
      completion_token_cost: p.completion,
      cache_read_input_token_cost: p.cacheRead,
      cache_creation_input_token_cost: p.cacheWrite,
      prompt_token_cost_unit: p.promptUnit,
      completion_token_cost_unit: p.completionUnit,
      effective_date: p.effective_date,
      provider_id: p.provider_id,
      pricing_level: p.pricing_level,
      pricing_level_id: p.pricing_level_id,
      created_at: p.created_at,
      created_by: p.created_by,
    };
    m = JSON.stringify(meta).slice(1, -1);
    metas.set(p, m);
  }
  return m;
}
