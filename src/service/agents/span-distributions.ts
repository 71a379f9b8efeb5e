// Weave's group_distributions of /agents/spans/query: for each group of the page (one group key
// only), how one custom attribute spreads over the group's spans. Numeric attributes (int,
// float) give `bins` equal bins between the group's smallest and largest value (the last bin
// holds its upper bound; one bin when all values are equal); strings and booleans give the
// `top_n` most frequent values ('true' / 'false' for booleans, 256 characters at most), the rest
// counted in other_count. total_count = the group's spans, present + missing = total.
import type { Static } from 'typebox';
import { DISTRIBUTION_LIMITS, type AgentSpanGroupDistributionSpec } from '../../api/agent-span-filters.js';
import { CUSTOM_ATTR_SOURCES } from '../../api/agent-span-values.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { FieldRef } from '../../query/plan.js';
import type { SpanDistributionSpec, SpanDistributionsQuery } from '../../storage/spans/span-filters.js';
import type { SpanGroupRow, SpanStore } from '../../storage/spans/span-store.js';

type Spec = Static<typeof AgentSpanGroupDistributionSpec>;
type Column = SpanDistributionSpec['column'];

interface Item {
  alias: string;
  source: Column;
  key: string;
  value_type: 'string' | 'int' | 'float' | 'bool';
  total_count: number;
  present_count: number;
  missing_count: number;
  other_count: number;
  bins: { index: number; min: number; max: number; count: number }[];
  values: { value: string; count: number }[];
}

const NUMERIC: ReadonlySet<string> = new Set(['custom_attrs_int', 'custom_attrs_float']);
/** Weave caps each categorical value at 256 characters. */
const VALUE_CHARS = 256;

/** The specs as the store takes them: custom attributes only, aliases unique. */
export function distributionSpecsOf(specs: readonly Spec[], keyCount: number): SpanDistributionSpec[] {
  if (specs.length === 0) return [];
  if (keyCount !== 1) throw new InvalidRequestError('group_distributions currently support one group_by ref');
  const aliases = specs.map((s) => s.alias);
  const twice = [...new Set(aliases.filter((a, i) => aliases.indexOf(a) !== i))].sort();
  if (twice.length > 0) throw new InvalidRequestError(`duplicate distribution aliases: ${twice.join(', ')}`);
  return specs.map((s, i) => {
    const source = s.value.source ?? 'field';
    if (!(CUSTOM_ATTR_SOURCES as readonly string[]).includes(source))
      throw new InvalidRequestError(`group_distributions[${i}]: distribution specs must reference custom attr sources`);
    const column = source as Column;
    return {
      alias: s.alias,
      column,
      key: s.value.key,
      limit: NUMERIC.has(column)
        ? (s.bins ?? DISTRIBUTION_LIMITS.defaultBins)
        : (s.top_n ?? DISTRIBUTION_LIMITS.defaultTopN),
    };
  });
}

/** Byte order of UTF-8, as both engines sort text. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Each page row's distributions, by alias, in the rows' order. */
export async function groupDistributions(
  spans: SpanStore,
  base: Omit<SpanDistributionsQuery, 'key' | 'groups' | 'specs'>,
  key: { alias: string; field: FieldRef },
  rows: readonly SpanGroupRow[],
  specs: readonly SpanDistributionSpec[],
): Promise<Record<string, Item>[]> {
  if (specs.length === 0) return rows.map(() => ({}));
  const groups = rows.map((r) => r.keys[key.alias] ?? null);
  const found = await spans.distributions({ ...base, key: key.field, groups, specs });
  const items = new Map<string, Item>();
  const id = (group: unknown, alias: string) => JSON.stringify([group ?? null, alias]);
  const out = rows.map((r, i) =>
    Object.fromEntries(
      specs.map((s) => {
        const total = r.sums.span_count;
        const item: Item = {
          alias: s.alias,
          source: s.column,
          key: s.key,
          value_type: s.column.slice('custom_attrs_'.length) as Item['value_type'],
          total_count: total,
          present_count: 0,
          missing_count: total,
          other_count: 0,
          bins: [],
          values: [],
        };
        items.set(id(groups[i], s.alias), item);
        return [s.alias, item];
      }),
    ),
  );
  const limits = new Map(specs.map((s) => [s.alias, s.limit]));
  for (const b of found.numeric) {
    const item = items.get(id(b.group, b.alias));
    if (item === undefined) continue;
    const bins = limits.get(b.alias)!;
    item.present_count = b.present;
    item.missing_count = Math.max(0, item.total_count - b.present);
    if (item.bins.length === 0) {
      const width = b.hi > b.lo ? (b.hi - b.lo) / bins : 1;
      item.bins =
        b.hi > b.lo
          ? Array.from({ length: bins }, (_, index) => ({
              index,
              min: b.lo + index * width,
              max: index === bins - 1 ? b.hi : b.lo + (index + 1) * width,
              count: 0,
            }))
          : [{ index: 0, min: b.lo, max: b.hi, count: 0 }];
    }
    const bin = item.bins[b.bin];
    if (bin !== undefined) bin.count += b.count;
  }
  for (const v of found.categorical) {
    const item = items.get(id(v.group, v.alias));
    if (item === undefined) continue;
    item.present_count = v.present;
    item.missing_count = Math.max(0, item.total_count - v.present);
    item.values.push({ value: [...v.value].slice(0, VALUE_CHARS).join(''), count: v.count });
  }
  for (const item of items.values()) {
    if (item.values.length === 0) continue;
    item.values.sort((a, b) => b.count - a.count || byBytes(a.value, b.value));
    item.other_count = Math.max(0, item.present_count - item.values.reduce((n, v) => n + v.count, 0));
  }
  return out;
}
