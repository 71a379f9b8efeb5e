// What agent tokens cost, priced as include_costs prices calls (service/costs): project prices
// first, else the default catalogue, in USD (parts priced in another unit count 0). Null, not
// 0, when no model of the tokens has a price, so that "unpriced" and "free" stay apart.
import type { SpanRow } from '../../query/span-columns.js';
import type { CostStore } from '../../storage/costs/cost-store.js';
import type { ModelTokens } from '../../storage/spans/span-store.js';
import { DEFAULT_COST_UNIT } from '../costs/cost-service.js';
import { createCostPricer } from '../costs/cost-summary.js';
import { costParts } from '../costs/token-prices.js';
import type { SpanPricer } from './chat-view.js';

export interface TokenCost {
  readonly input: number;
  readonly output: number;
  readonly total: number;
}

const usd = (unit: string) => unit.toUpperCase() === DEFAULT_COST_UNIT;

/** Each item's cost: the sum over its models' tokens at its time; null when none is priced. */
export async function modelCosts(
  costs: CostStore,
  projectId: string,
  items: readonly { readonly models: readonly ModelTokens[]; readonly at: number }[],
): Promise<(TokenCost | null)[]> {
  const pricer = createCostPricer(costs, projectId);
  await pricer.load(items.flatMap((i) => i.models.map((m) => m.model)).filter((m) => m !== ''));
  return items.map((item): TokenCost | null => {
    let input = 0;
    let output = 0;
    let priced = false;
    for (const m of item.models) {
      if (m.model === '' || m.input_tokens + m.output_tokens === 0) continue;
      const usage = {
        prompt_tokens: m.input_tokens,
        completion_tokens: m.output_tokens,
        cache_read_input_tokens: m.cache_read_input_tokens,
        cache_creation_input_tokens: m.cache_creation_input_tokens,
        requests: 0,
        total_tokens: m.input_tokens + m.output_tokens,
      };
      const p = pricer.prices(m.model, usage, item.at);
      if (p === null) continue;
      const parts = costParts(usage, p);
      priced = true;
      input += usd(p.promptUnit) ? parts.prompt + parts.cacheRead + parts.cacheWrite : 0;
      output += usd(p.completionUnit) ? parts.completion : 0;
    }
    return priced ? { input, output, total: input + output } : null;
  });
}

const n = (v: unknown) => (typeof v === 'number' ? v : 0);
const modelOf = (s: SpanRow) =>
  typeof s.response_model === 'string' ? s.response_model : typeof s.request_model === 'string' ? s.request_model : '';

/** A pricer of single spans (their own tokens, by their model), loaded for these spans. */
export async function spanPricer(costs: CostStore, projectId: string, rows: readonly SpanRow[]): Promise<SpanPricer> {
  const items = rows.map((s) => ({
    models: [
      {
        model: modelOf(s),
        input_tokens: n(s.input_tokens),
        output_tokens: n(s.output_tokens),
        reasoning_tokens: n(s.reasoning_tokens),
        cache_creation_input_tokens: n(s.cache_creation_input_tokens),
        cache_read_input_tokens: n(s.cache_read_input_tokens),
      },
    ],
    at: Number(s.started_at),
  }));
  const priced = await modelCosts(costs, projectId, items);
  const byRow = new Map(rows.map((r, i) => [r, priced[i] ?? null]));
  return (s) => byRow.get(s) ?? null;
}
