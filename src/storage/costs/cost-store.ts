// What every engine must offer for LLM prices (weave-api.md §3.8). Engine-neutral: no SQL,
// no transactions assumed; "atomic" means no reader sees half of the write (SQLite: one
// transaction; an engine without transactions: versioned rows or one insert per write).
import type { Micros } from '../../time.js';
import type { Expr, SortTerm } from '../../query/plan.js';

export type PricingLevel = 'default' | 'project';

/** The pricing_level_id of default prices. */
export const DEFAULT_PRICING_LEVEL_ID = 'default';

/** One price of one LLM, per token, from `effective_date` on. */
export interface PriceRow {
  readonly id: string;
  /** 'project' (pricing_level_id = the project). Default prices are not stored: they come from the catalogue. */
  readonly pricing_level: PricingLevel;
  readonly pricing_level_id: string;
  readonly provider_id: string;
  readonly llm_id: string;
  readonly effective_date: Micros;
  readonly prompt_token_cost: number;
  readonly completion_token_cost: number;
  readonly prompt_token_cost_unit: string;
  readonly completion_token_cost_unit: string;
  readonly created_by: string;
  readonly created_at: Micros;
}

/** A compiled cost query over every stored price (the service adds the level restrictions to `where`). */
export interface PriceQuery {
  /** Fields are the columns of cost-fields.ts; null = every row. */
  readonly where: Expr | null;
  /** Empty = insertion order. */
  readonly sort: readonly SortTerm[];
  readonly limit: number | null;
  readonly offset: number | null;
}

export interface CostStore {
  /** Stores the rows durably, all or none. Ids are new (uuidv7): nothing is replaced. */
  insert(rows: readonly PriceRow[]): Promise<void>;
  /** Matching rows, sorted and paged. */
  query(q: PriceQuery): Promise<PriceRow[]>;
  /** Hard-deletes the project-level prices of the project with these ids; returns how many existed. */
  purgeProjectPrices(projectId: string, ids: readonly string[]): Promise<number>;
  /** The project-level prices of these llm_ids in the project, in any order. One call per chunk of calls. */
  findProjectPrices(projectId: string, llmIds: readonly string[]): Promise<PriceRow[]>;
}
