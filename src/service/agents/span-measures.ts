// Weave's AgentSpanMeasureSpec and AgentSpanGroupFilter as the span store takes them: a measure
// is one aggregation of a value whose type suits it (only count may omit the value), over the
// spans its filter keeps; a group filter bounds a measure (at least one bound, both of one
// kind, max >= min; times only for measures of times). Mistakes answer 400, as Weave's do.
import type { Static } from 'typebox';
import type { AgentSpanMeasureSpec, StatsValueType } from '../../api/agent-span-values.js';
import type { AgentSpanGroupFilter } from '../../api/agent-span-filters.js';
import type { AgentGroupByRef } from '../../api/agent-group-by.js';
import { InvalidRequestError } from '../../api/errors.js';
import { compileQuery } from '../../query/compile-query.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { SpanGroupBound } from '../../storage/spans/span-filters.js';
import type { SpanMeasure, StatsValue } from '../../storage/spans/span-measures.js';
import { parseTimestamp } from '../../time.js';
import { ALLOWED, spanValue } from './span-values.js';

type MeasureSpec = Static<typeof AgentSpanMeasureSpec>;
type GroupFilter = Static<typeof AgentSpanGroupFilter>;
type GroupRef = Static<typeof AgentGroupByRef>;

/** A measure and the type of what it yields (min and max keep their value's type). */
export function measureOf(m: MeasureSpec, at: string): { measure: SpanMeasure; type: StatsValueType } {
  let value: StatsValue | null = null;
  let type: StatsValueType = 'number';
  if (m.value === undefined || m.value === null) {
    if (m.aggregation !== 'count') throw new InvalidRequestError(`${at}: only count measures may omit value`);
  } else {
    const resolved = spanValue(m.value, `${at}.value`);
    if (m.value_type !== undefined && m.value_type !== null && m.value_type !== resolved.type)
      throw new InvalidRequestError(`${at}: ${m.value.key} has value_type ${resolved.type}, not ${m.value_type}`);
    if (!ALLOWED[resolved.type].includes(m.aggregation))
      throw new InvalidRequestError(`${at}: ${m.aggregation} is not valid for ${resolved.type} values`);
    value = resolved.value;
    if (m.aggregation === 'min' || m.aggregation === 'max') type = resolved.type;
  }
  return {
    measure: {
      alias: m.alias,
      output: { name: m.alias, value, aggregation: m.aggregation, percentile: null },
      filter: m.filter ? compileQuery(m.filter, spanFieldCatalog) : null,
    },
    type,
  };
}

/** A group filter's bound on its measure; times become microseconds. */
export function boundOf(f: GroupFilter, at: string): SpanGroupBound {
  const { measure, type } = measureOf(f.measure, `${at}.measure`);
  const min = f.min ?? null;
  const max = f.max ?? null;
  if (min === null && max === null) throw new InvalidRequestError(`${at}: group filter must set min or max`);
  if (min !== null && max !== null && typeof min !== typeof max)
    throw new InvalidRequestError(`${at}: group filter min and max must use the same type`);
  const asNumber = (b: number | string | null, name: string): number | null => {
    if (b === null) return null;
    if (typeof b === 'string') {
      if (type !== 'datetime')
        throw new InvalidRequestError(`${at}: datetime group filter bounds require a datetime measure`);
      return parseTimestamp(b, `${at}.${name}`);
    }
    if (type === 'datetime')
      throw new InvalidRequestError(`${at}: datetime measures require datetime group filter bounds`);
    return b;
  };
  const lo = asNumber(min, 'min');
  const hi = asNumber(max, 'max');
  if (lo !== null && hi !== null && hi < lo)
    throw new InvalidRequestError(`${at}: group filter max must be greater than min`);
  return { measure, min: lo, max: hi };
}

/** Weave compares group_by refs field by field, defaults applied. */
export function sameGrouping(a: readonly GroupRef[], b: readonly GroupRef[]): boolean {
  const norm = (r: GroupRef) => JSON.stringify([r.source ?? 'field', r.key, r.alias ?? null]);
  return a.length === b.length && a.every((r, i) => norm(r) === norm(b[i]!));
}
