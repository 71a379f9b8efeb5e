// Project LLM prices above the CostStore (weave-api.md §1.21-1.23): rows built from
// requests, the level restrictions every cost query carries, output shaping.
import type { CostCreateReq, CostCreateRes, CostPurgeReq, CostQueryOutput, CostQueryReq } from '../../api/costs.js';
import { compileQuery } from '../../query/compile-query.js';
import { costFields } from '../../query/cost-fields.js';
import type { Expr } from '../../query/plan.js';
import type { CostStore, PriceRow } from '../../storage/costs/cost-store.js';
import { formatTimestamp, nowMicros, parseTimestamp, type Micros } from '../../time.js';
import { costPurgeIds } from './cost-purge.js';
import { uuidv7 } from '../json/ids.js';

export const DEFAULT_COST_UNIT = 'USD';
export const DEFAULT_PROVIDER_ID = 'default';

/** The keys of every /cost/query result, in Weave's order; unselected ones are null. */
const OUTPUT_KEYS = [
  'id',
  'llm_id',
  'prompt_token_cost',
  'completion_token_cost',
  'prompt_token_cost_unit',
  'completion_token_cost_unit',
  'effective_date',
  'provider_id',
] as const satisfies readonly (keyof CostQueryOutput & keyof PriceRow)[];

export interface CostServiceOptions {
  readonly now?: () => Micros;
  readonly newId?: () => string;
}

const field = (name: string): Expr => ({ kind: 'field', field: costFields.resolve(name) });
const eq = (name: string, value: string): Expr => ({
  kind: 'compare',
  op: 'eq',
  left: field(name),
  right: { kind: 'literal', value },
});

/** Requested output keys: all when `fields` is absent or empty; every name must be a cost field (else 422). */
function selectedKeys(fields: readonly string[] | null | undefined): ReadonlySet<string> {
  if (!fields || fields.length === 0) return new Set(OUTPUT_KEYS);
  for (const f of fields) costFields.resolve(f);
  return new Set(fields);
}

function toOutput(row: PriceRow, keys: ReadonlySet<string>): CostQueryOutput {
  const out = {} as Record<(typeof OUTPUT_KEYS)[number], unknown>;
  for (const k of OUTPUT_KEYS) out[k] = keys.has(k) ? row[k] : null;
  if (typeof out.effective_date === 'number') out.effective_date = formatTimestamp(out.effective_date);
  return out as CostQueryOutput;
}

export function createCostService(store: CostStore, opts: CostServiceOptions = {}) {
  const now = opts.now ?? nowMicros;
  const newId = opts.newId ?? (() => uuidv7());

  return {
    /** One project-level price per llm_id, created by the caller; ids answer as [cost_id, llm_id]. */
    async create(req: CostCreateReq, userId: string): Promise<CostCreateRes> {
      const at = now();
      const rows: PriceRow[] = Object.entries(req.costs).map(([llmId, c]) => ({
        id: newId(),
        pricing_level: 'project',
        pricing_level_id: req.project_id,
        provider_id: c.provider_id ?? DEFAULT_PROVIDER_ID,
        llm_id: llmId,
        effective_date: c.effective_date != null ? parseTimestamp(c.effective_date, 'effective_date') : at,
        prompt_token_cost: c.prompt_token_cost,
        completion_token_cost: c.completion_token_cost,
        prompt_token_cost_unit: c.prompt_token_cost_unit ?? DEFAULT_COST_UNIT,
        completion_token_cost_unit: c.completion_token_cost_unit ?? DEFAULT_COST_UNIT,
        created_by: userId,
        created_at: at,
      }));
      await store.insert(rows);
      return { ids: rows.map((r) => [r.id, r.llm_id] as [string, string]) };
    },

    /**
     * The request project's own prices, narrowed by `query`. Weave lets a given query
     * replace the project restriction, which would list other projects' prices to anyone
     * who may read this one; Weft always keeps the restriction (a project is an access
     * boundary). Default prices are never listed.
     */
    async query(req: CostQueryReq): Promise<CostQueryOutput[]> {
      const keys = selectedKeys(req.fields);
      const scope: Expr[] = [eq('pricing_level_id', req.project_id), eq('pricing_level', 'project')];
      if (req.query) scope.push(compileQuery(req.query, costFields));
      const rows = await store.query({
        where: { kind: 'and', items: scope },
        sort: (req.sort_by ?? []).map((s) => ({ field: costFields.resolve(s.field), direction: s.direction })),
        limit: req.limit ?? null,
        offset: req.offset ?? null,
      });
      return rows.map((r) => toOutput(r, keys));
    },

    /** Deletes project prices of this project by id only (see cost-purge.ts). */
    async purge(req: CostPurgeReq): Promise<void> {
      await store.purgeProjectPrices(req.project_id, costPurgeIds(req.query.$expr));
    },
  };
}
export type CostService = ReturnType<typeof createCostService>;
