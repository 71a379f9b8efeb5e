// SQLite tables and indexes for LLM prices (part of migration 2).
// llm_token_prices: one row per price, as Weave's table of that name (weave-api.md §3.8).
//   'project' rows come from /cost/create. Until migration 7, 'default' rows mirrored a
//   shipped price list; default prices now come from a catalogue package, not the database.
//   Times are integer microseconds since the epoch (UTC); prices are per token.
//   Rowid order is insertion order, the order /cost/query returns without sort_by.
export const COSTS_SCHEMA_V2 = `
CREATE TABLE llm_token_prices (
  id                         TEXT NOT NULL PRIMARY KEY,
  pricing_level              TEXT NOT NULL,   -- 'default' | 'project'
  pricing_level_id           TEXT NOT NULL,   -- 'default' | project_id
  provider_id                TEXT NOT NULL,
  llm_id                     TEXT NOT NULL,
  effective_date             INTEGER NOT NULL,
  prompt_token_cost          REAL NOT NULL,
  completion_token_cost      REAL NOT NULL,
  prompt_token_cost_unit     TEXT NOT NULL,
  completion_token_cost_unit TEXT NOT NULL,
  created_by                 TEXT NOT NULL,
  created_at                 INTEGER NOT NULL
);
CREATE INDEX llm_token_prices_by_llm ON llm_token_prices (llm_id, pricing_level, pricing_level_id, effective_date);
CREATE INDEX llm_token_prices_by_level ON llm_token_prices (pricing_level, pricing_level_id);
`;

/** Migration 7: default prices are no longer stored (see default-llm-prices.ts). */
export const COSTS_DROP_DEFAULTS_V7 = `DELETE FROM llm_token_prices WHERE pricing_level = 'default';`;
