// Values the agent span aggregations read (/agents/spans/stats metrics, /agents/spans/query
// measures): a span field, a typed custom attribute or a derived figure, with its value type
// and the aggregations that type allows (Weave's _ALLOWED_AGGS_BY_TYPE).
import type { Static } from 'typebox';
import type { AgentSpanValueRef, StatsValueType } from '../../api/agents-stats.js';
import { InvalidRequestError } from '../../api/errors.js';
import { SPAN_COLUMN_TYPES } from '../../query/span-columns.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { StatsValue } from '../../storage/spans/span-measures.js';

type ValueRef = Static<typeof AgentSpanValueRef>;

export const ALLOWED: Readonly<Record<StatsValueType, readonly string[]>> = {
  datetime: ['min', 'max', 'count', 'count_distinct'],
  number: ['sum', 'avg', 'min', 'max', 'count', 'count_distinct'],
  boolean: ['count', 'count_distinct', 'count_true', 'count_false'],
  string: ['count', 'count_distinct'],
};
const DERIVED_TYPES: Readonly<Record<string, StatsValueType>> = {
  duration_ms: 'number',
  total_tokens: 'number',
  is_error: 'boolean',
  is_invocation: 'boolean',
};
export const CUSTOM_TYPES: Readonly<Record<string, StatsValueType>> = {
  custom_attrs_string: 'string',
  custom_attrs_int: 'number',
  custom_attrs_float: 'number',
  custom_attrs_bool: 'boolean',
};
/** What a value reference reads, and its type (Weave's rules: derived figures, columns, custom maps). */
export function spanValue(ref: ValueRef, at: string): { value: StatsValue; type: StatsValueType } {
  const source: string = ref.source ?? 'field';
  if (source === 'derived') {
    const type = DERIVED_TYPES[ref.key];
    if (type === undefined) throw new InvalidRequestError(`${at}: unknown derived span value ${ref.key}`);
    return { value: { kind: 'derived', name: ref.key as 'duration_ms' }, type };
  }
  if (source !== 'field')
    return { value: { kind: 'custom', column: source, key: ref.key }, type: CUSTOM_TYPES[source]! };
  const field = spanFieldCatalog.resolve(ref.key);
  if (field.kind === 'json')
    return { value: { kind: 'custom', column: field.column, key: field.path[0]! }, type: CUSTOM_TYPES[field.column]! };
  if (field.kind !== 'column') throw new InvalidRequestError(`${at}: ${ref.key} cannot be aggregated`);
  const stored = (SPAN_COLUMN_TYPES as Record<string, string>)[field.name];
  const type: StatsValueType =
    field.name === 'started_at' || field.name === 'ended_at' ? 'datetime' : stored === 'string' ? 'string' : 'number';
  return { value: { kind: 'column', name: field.name }, type };
}
