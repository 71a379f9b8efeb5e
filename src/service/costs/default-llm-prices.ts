// The default price level: @pydantic/genai-prices' bundled catalogue (provider rules, dated
// snapshots, aliases, cache and tiered prices, price changes over time), matched the way the
// library matches, with Weft's few overrides (price-overrides.ts). Never the network: the
// data is the package's, updated by upgrading it.
//
// Matching an llm_id costs ~0.1 ms in the library, so the match (provider and model) is
// cached per llm_id and the price in force at a call's start is chosen here, by the same
// rules as the library's calcPrice (checked against it in test/costs-catalogue.test.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { calcPrice, type ModelInfo, type ModelPrice, type Provider } from '@pydantic/genai-prices';
import type { Micros } from '../../time.js';
import { PRICE_OVERRIDES } from './price-overrides.js';

export interface DefaultPrice {
  readonly provider_id: string;
  /** The catalogue's model id (which may differ from the llm_id it was matched from). */
  readonly model_id: string;
  /** USD per million tokens, by usage key (input_mtok, cache_read_mtok, ...); some tiered. */
  readonly price: ModelPrice;
  /** The start of the price in force, when the catalogue dates it; else null. */
  readonly effective_date: Micros | null;
  /** Who set the price: the catalogue and its version, or a Weft override. */
  readonly source: string;
}

interface Match {
  readonly provider: Provider;
  readonly model: ModelInfo;
}

const require = createRequire(import.meta.url);
const VERSION = (
  JSON.parse(readFileSync(join(dirname(require.resolve('@pydantic/genai-prices')), '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
export const CATALOGUE = `@pydantic/genai-prices ${VERSION}`;

const MATCH_CACHE_SIZE = 10_000;
const matches = new Map<string, Match | null>();

function lookup(modelId: string, providerId?: string): Match | null {
  const r = calcPrice({ input_tokens: 0, output_tokens: 0 }, modelId, providerId ? { providerId } : undefined);
  return r ? { provider: r.provider, model: r.model } : null;
}

/** The catalogue entry of an llm_id: as given, else "provider/model" split, else the last segment. */
function match(llmId: string): Match | null {
  const cached = matches.get(llmId);
  if (cached !== undefined) return cached;
  let m = lookup(llmId);
  const cut = llmId.lastIndexOf('/');
  if (m === null && cut > 0)
    m = lookup(llmId.slice(cut + 1), llmId.slice(0, llmId.indexOf('/'))) ?? lookup(llmId.slice(cut + 1));
  if (matches.size >= MATCH_CACHE_SIZE) matches.clear();
  matches.set(llmId, m);
  return m;
}

/** Seconds since midnight UTC of a constraint time "HH:MM:SS[.fff](Z|+HH:MM|-HH:MM)". */
function secondsOfDay(time: string): number {
  const m = /^(\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)(Z|([+-])(\d{2}):(\d{2}))$/.exec(time);
  if (!m) throw new Error(`${CATALOGUE}: unreadable time of day ${time}`);
  const offset = m[4] === 'Z' ? 0 : (m[5] === '+' ? 1 : -1) * (Number(m[6]) * 3600 + Number(m[7]) * 60);
  return (((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) - offset) % 86400) + 86400) % 86400;
}

/** The model's prices in force at `at`: the last conditional entry whose constraint holds, else the first. */
function pricesAt(model: ModelInfo, at: Date): { price: ModelPrice; since: Micros | null } {
  if (!Array.isArray(model.prices)) return { price: model.prices, since: null };
  const day = at.getUTCHours() * 3600 + at.getUTCMinutes() * 60 + at.getUTCSeconds() + at.getUTCMilliseconds() / 1000;
  for (let i = model.prices.length - 1; i >= 0; i--) {
    const { constraint, prices } = model.prices[i]!;
    if (constraint === undefined) return { price: prices, since: null };
    if (constraint.type === 'start_date') {
      const start = Date.parse(`${constraint.start_date}T00:00:00Z`);
      if (at.getTime() >= start) return { price: prices, since: start * 1000 };
    } else {
      const from = secondsOfDay(constraint.start_time);
      const to = secondsOfDay(constraint.end_time);
      if (to < from ? day >= from || day < to : day >= from && day < to) return { price: prices, since: null };
    }
  }
  return { price: model.prices[0]!.prices, since: null };
}

/** Default prices that do not depend on the time (no override by date, no conditional prices), per llm_id. */
const timeless = new Map<string, DefaultPrice>();

/**
 * The default price of an llm_id for a call started at `startedAt`, or null when the
 * catalogue has none. A price that does not depend on the time is the same object each time.
 */
export function defaultPrice(llmId: string, startedAt: Micros): DefaultPrice | null {
  const known = timeless.get(llmId);
  if (known !== undefined) return known;
  const id = llmId.toLowerCase().trim();
  const at = new Date(Math.floor(startedAt / 1000));
  const override = PRICE_OVERRIDES.find(
    (o) => o.llm_id === id && (o.since === null || at.getTime() >= Date.parse(`${o.since}T00:00:00Z`)),
  );
  const m = match(override ? override.use : id);
  if (m === null) return null;
  const { price, since } = pricesAt(m.model, at);
  const result: DefaultPrice = {
    provider_id: m.provider.id,
    model_id: m.model.id,
    price,
    effective_date: since ?? (override?.since ? Date.parse(`${override.since}T00:00:00Z`) * 1000 : null),
    source: override ? `weft override of ${CATALOGUE}` : CATALOGUE,
  };
  const dated = PRICE_OVERRIDES.some((o) => o.llm_id === id && o.since !== null);
  if (!dated && !Array.isArray(m.model.prices)) {
    if (timeless.size >= MATCH_CACHE_SIZE) timeless.clear();
    timeless.set(llmId, result);
  }
  return result;
}
