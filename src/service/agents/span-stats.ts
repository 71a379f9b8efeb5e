// /agents/spans/stats (api/agents-stats.ts): checks the request as Weave does, picks the
// granularity (Weave's automatic steps, at most 10,000 buckets), aligns the buckets to the
// time zone's offset at `start` (a day bucket starts at local midnight), asks the store for
// the (bucket, group) cells that hold spans and fills in the rest: every bucket for every kept
// group, sums and counts 0 where no span falls, min, max and percentiles null. Group filters
// keep the spans of the groups (conversations unless said) meeting them; signal and Insights
// filters the spans of matching conversations (conversation-filters.ts); numeric buckets are
// span-histogram.ts.
import type { Static } from 'typebox';
import {
  STATS_GROUP_LIMIT,
  STATS_MAX_RANGE_DAYS,
  STATS_MAX_ROWS,
  type AgentSpanStatsReq,
  type StatsValueType,
} from '../../api/agents-stats.js';
import { InvalidRequestError } from '../../api/errors.js';
import { compileQuery } from '../../query/compile-query.js';
import { SPAN_COLUMN_TYPES } from '../../query/span-columns.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { FieldRef } from '../../query/plan.js';
import type { SpanStore } from '../../storage/spans/span-store.js';
import { formatTimestamp, parseTimestamp } from '../../time.js';
import { keyOf } from './span-groups.js';
import { CUSTOM_TYPES } from './span-values.js';
import { DAY, SECOND, alignedOrigin, bucketCount, statsGranularity } from '../stats/time-buckets.js';
import { cellOf, metricColumn, outputsOf } from './stats-outputs.js';
import { boundOf } from './span-measures.js';
import { insightsMatchNothing, signalsOf } from './conversation-filters.js';
import { numericStats } from './span-histogram.js';

type Req = Static<typeof AgentSpanStatsReq>;
/** Stats group filters without a group_by group by conversation (Weave's default). */
const CONVERSATION: FieldRef = { kind: 'column', name: 'conversation_id', type: 'string' };

export async function spanStats(spans: SpanStore, req: Req) {
  const numeric = req.bucket_by?.type === 'number' ? req.bucket_by : null;
  const metrics = req.metrics ?? [];
  if (metrics.length === 0 && numeric === null) throw new InvalidRequestError('at least one metric is required');
  const outputs = outputsOf(metrics);
  const start = parseTimestamp(req.start, 'start');
  const end = req.end ? parseTimestamp(req.end, 'end') : Date.now() * 1000;
  if (end < start) throw new InvalidRequestError('end must be after start');
  const keys = (req.group_by ?? []).map(keyOf);
  const filters = req.group_filters ?? [];
  // Unfiltered, ungrouped requests (cheap top-line counts) are not bound by the range cap.
  if (
    (keys.length > 0 || filters.length > 0 || (req.insight_filters?.length ?? 0) > 0 || numeric !== null) &&
    end - start > STATS_MAX_RANGE_DAYS * DAY
  )
    throw new InvalidRequestError(
      `the date range cannot exceed ${STATS_MAX_RANGE_DAYS} days with group_by, group_filters, insight_filters or a numeric bucket`,
    );
  if (numeric !== null && keys.length > 0)
    throw new InvalidRequestError('numeric bucket stats do not support group_by');
  if (filters.length > 0 && keys.length > 0) throw new InvalidRequestError('group_filters do not support group_by');
  const where = req.query ? compileQuery(req.query, spanFieldCatalog) : null;
  const signals = signalsOf(req.signal_filters);
  const nothing = insightsMatchNothing(req.insight_filters);
  if (numeric !== null) return numericStats(spans, req, numeric, { start, end, where, signals, nothing, outputs });
  const groupFilters = filters.map((f, i) => ({
    keys: (f.group_by?.length ?? 0) > 0 ? f.group_by!.map((r, j) => keyOf(r, j).field) : [CONVERSATION],
    bounds: [boundOf(f, `group_filters[${i}]`)],
  }));
  const timezone = req.timezone ?? 'UTC';
  const granularity = statsGranularity(start, end, req.granularity);
  const width = granularity * SECOND;
  // A granularity that covers the whole range is one bucket from `start` (Weft's addition: a
  // figure over exactly the range, such as a 30-day p95); otherwise buckets align to the zone.
  const aligned = alignedOrigin(start, width, timezone); // also refuses an unknown zone
  const origin = width >= end - start ? start : aligned;
  const buckets = bucketCount(origin, end, width);
  const groupLimit = req.group_limit ?? STATS_GROUP_LIMIT.default;
  if (buckets * (keys.length > 0 ? groupLimit : 1) > STATS_MAX_ROWS && keys.length > 0)
    throw new InvalidRequestError(
      `${buckets} buckets x ${groupLimit} groups exceed ${STATS_MAX_ROWS} rows: raise granularity or lower group_limit`,
    );
  // Insights filters that include values leave no span (conversation-filters.ts).
  const result = nothing
    ? { groups: keys.length > 0 ? [] : [{}], cells: [] }
    : await spans.stats({
        projectId: req.project_id,
        where,
        signals,
        groupFilters,
        start,
        end,
        origin,
        width,
        keys,
        groupLimit,
        outputs: outputs.map((o) => o.output),
      });
  const keyOfGroup = (g: Record<string, unknown>) => JSON.stringify(keys.map((k) => g[k.alias] ?? null));
  const cells = new Map(result.cells.map((c) => [`${c.bucket}\u0000${keyOfGroup(c.keys)}`, c.values]));
  const groups = [...result.groups].sort((a, b) =>
    compareKeys(
      keys.map((k) => a[k.alias]),
      keys.map((k) => b[k.alias]),
    ),
  );
  const rows: Record<string, unknown>[] = [];
  for (let b = 0; b < buckets; b++)
    for (const g of groups) {
      const values = cells.get(`${b}\u0000${keyOfGroup(g)}`);
      const row: Record<string, unknown> = { timestamp: formatTimestamp(origin + b * width), ...g };
      for (const o of outputs) row[o.output.name] = cellOf(o, values?.[o.output.name]);
      rows.push(row);
    }
  return {
    start: formatTimestamp(start),
    end: formatTimestamp(end),
    granularity,
    timezone,
    bucket_type: 'time' as const,
    columns: [
      { name: 'timestamp', role: 'time' as const, value_type: 'datetime' as const, metric: null, aggregation: null },
      ...keys.map((k) => ({
        name: k.alias,
        role: 'group' as const,
        value_type: groupType(k.field) as StatsValueType,
        metric: null,
        aggregation: null,
      })),
      ...outputs.map(metricColumn),
    ],
    rows,
  };
}

function groupType(field: ReturnType<typeof keyOf>['field']): StatsValueType {
  if (field.kind === 'json') return CUSTOM_TYPES[field.column] ?? 'string';
  if (field.kind !== 'column') return 'string';
  return (SPAN_COLUMN_TYPES as Record<string, string>)[field.name] === 'string' ? 'string' : 'number';
}

/** Keys ascending, nulls last (as Weave's ORDER BY on ClickHouse). */
function compareKeys(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i] ?? null, b[i] ?? null];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : 1;
  }
  return 0;
}
