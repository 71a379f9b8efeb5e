// Migration 7: the built-in prices leave the database (they are read from the catalogue).
import type { Migration } from '../database.js';

export const COSTS_DROP_DEFAULTS_V7 = `DELETE FROM llm_token_prices WHERE pricing_level = 'default';`;

export const MIGRATION_7: Migration = { version: 7, sql: COSTS_DROP_DEFAULTS_V7 };
