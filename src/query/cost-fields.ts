// The fields of LLM prices a cost query may name (filter, sort, select): the columns of
// Weave's llm_token_prices table (weave-api.md §3.8). Anything else is an InvalidFieldError
// (422). There are no JSON paths: every field is a plain column.
import { InvalidFieldError } from '../api/errors.js';
import type { FieldCatalog, FieldRef } from './plan.js';

type ColumnType = Extract<FieldRef, { kind: 'column' }>['type'];

/**
 * Every price column and how the plan compares it. The plan has no type for real numbers;
 * 'int' marks the two prices as numeric (compared as numbers, never as text or time).
 */
export const COST_COLUMN_TYPES = {
  id: 'string',
  pricing_level: 'string',
  pricing_level_id: 'string',
  provider_id: 'string',
  llm_id: 'string',
  effective_date: 'datetime',
  prompt_token_cost: 'int',
  completion_token_cost: 'int',
  prompt_token_cost_unit: 'string',
  completion_token_cost_unit: 'string',
  created_by: 'string',
  created_at: 'datetime',
} as const satisfies Record<string, ColumnType>;

export type CostColumn = keyof typeof COST_COLUMN_TYPES;
export const COST_COLUMNS = Object.keys(COST_COLUMN_TYPES) as readonly CostColumn[];

export function isCostColumn(name: string): name is CostColumn {
  return Object.hasOwn(COST_COLUMN_TYPES, name);
}

export const costFields: FieldCatalog = {
  resolve(name: string): FieldRef {
    if (isCostColumn(name)) return { kind: 'column', name, type: COST_COLUMN_TYPES[name] };
    throw new InvalidFieldError(`Invalid cost field: ${name}`);
  },
};
