// What every engine must offer for LLM prices (weave-api.md §3.8). Engine-neutral: no SQL,
// no transactions assumed; "atomic" means no reader sees half of the write (SQLite: one
// transaction; an engine without transactions: versioned rows or one insert per write).
import type { Micros } from '../time.js';
import type { Expr, SortTerm } from '../query/plan.js';

export type PricingLevel = 'default' | 'project';

/** The pricing_level_id of default prices. */
export const DEFAULT_PRICING_LEVEL_ID = 'default';

/** One price of one LLM, per token, from `effective_date` on. */
export interface PriceRow {
  readonly id: string;
  /** 'default' (the shipped list, pricing_level_id "default") or 'project' (pricing_level_id = the project). */
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
  /**
   * Every price of these llm_ids that applies to the project: its project-level prices and
   * the default prices (no other project's), in any order. One call per chunk of calls.
   */
  findApplicablePrices(projectId: string, llmIds: readonly string[]): Promise<PriceRow[]>;
  /**
   * Atomically makes the default-level prices equal `rows`: a row whose id exists is
   * updated (its created_at and created_by are kept), a new id is inserted, and default
   * rows whose id is not among `rows` are deleted. Project prices are never touched.
   */
  syncDefaultPrices(rows: readonly PriceRow[]): Promise<void>;
}
