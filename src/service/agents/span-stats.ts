// /agents/spans/stats (api/agents-stats.ts): checks the request as Weave does, picks the
// granularity (Weave's automatic steps, at most 10,000 buckets), aligns the buckets to the
// time zone's offset at `start` (a day bucket starts at local midnight), asks the store for
// the (bucket, group) cells that hold spans and fills in the rest: every bucket for every kept
// group, sums and counts 0 where no span falls, min, max and percentiles null.
// Numeric buckets, group filters, signal and insight filters answer 400 (not served yet).
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
import type { SpanStore, StatsOutput } from '../../storage/span-store.js';
import { formatTimestamp, parseTimestamp } from '../../time.js';
import { keyOf } from './span-groups.js';
import { ALLOWED, CUSTOM_TYPES, spanValue } from './span-values.js';
import { DAY, SECOND, alignedOrigin, bucketCount, readable, statsGranularity } from '../stats/time-buckets.js';

type Req = Static<typeof AgentSpanStatsReq>;
type Metric = NonNullable<Req['metrics']>[number];

/** Outputs that read 0 in a bucket without spans (Weave coalesces these). */
const ZERO_WHEN_EMPTY = new Set(['sum', 'avg', 'count', 'count_distinct', 'count_true', 'count_false']);

function outputsOf(metrics: readonly Metric[]) {
  const aliases = metrics.map((m) => m.alias);
  const twice = [...new Set(aliases.filter((a, i) => aliases.indexOf(a) !== i))];
  if (twice.length > 0) throw new InvalidRequestError(`duplicate metric aliases: ${twice.join(', ')}`);
  return metrics.flatMap((m, i) => {
    const { value, type } = spanValue(m.value, `metrics[${i}].value`);
    if (type !== m.value_type)
      throw new InvalidRequestError(`metrics[${i}]: ${m.value.key} has value_type ${type}, not ${m.value_type}`);
    const aggs = m.aggregations ?? [];
    const pcts = m.percentiles ?? [];
    const bad = aggs.filter((a) => !ALLOWED[type].includes(a));
    if (bad.length > 0) throw new InvalidRequestError(`metrics[${i}]: ${bad.join(', ')} not valid for ${type} values`);
    if (new Set(aggs).size !== aggs.length) throw new InvalidRequestError(`metrics[${i}]: aggregations must be unique`);
    if (new Set(pcts).size !== pcts.length) throw new InvalidRequestError(`metrics[${i}]: percentiles must be unique`);
    if (pcts.length > 0 && type !== 'number')
      throw new InvalidRequestError(`metrics[${i}]: percentiles are only valid for number metrics`);
    const chosen = aggs.length === 0 && pcts.length === 0 ? [type === 'number' ? 'sum' : 'count'] : aggs;
    return [
      ...chosen.map((a) => ({
        output: { name: `${a}_${m.alias}`, value, aggregation: a, percentile: null } satisfies StatsOutput,
        type: a === 'min' || a === 'max' ? type : 'number',
        metric: m.alias,
      })),
      ...pcts.map((p) => ({
        output: {
          name: `p${Number.isInteger(p) ? p : String(p).replace('.', '_')}_${m.alias}`,
          value,
          aggregation: 'percentile',
          percentile: p,
        } satisfies StatsOutput,
        type: 'number' as StatsValueType,
        metric: m.alias,
      })),
    ];
  });
}

export async function spanStats(spans: SpanStore, req: Req) {
  for (const name of ['group_filters', 'insight_filters'] as const)
    if ((req[name]?.length ?? 0) > 0) throw new InvalidRequestError(`${name} is not supported yet by this server`);
  if (req.signal_filters !== undefined && req.signal_filters !== null)
    throw new InvalidRequestError('signal_filters is not supported yet by this server');
  const bucketType = req.bucket_by?.type ?? 'time';
  if (bucketType === 'number') throw new InvalidRequestError('numeric buckets are not supported yet by this server');
  if (bucketType !== 'time') throw new InvalidRequestError('bucket_by.type must be "time" or "number"');
  const metrics = req.metrics ?? [];
  if (metrics.length === 0) throw new InvalidRequestError('at least one metric is required');
  const outputs = outputsOf(metrics);
  const start = parseTimestamp(req.start, 'start');
  const end = req.end ? parseTimestamp(req.end, 'end') : Date.now() * 1000;
  if (end < start) throw new InvalidRequestError('end must be after start');
  const keys = (req.group_by ?? []).map(keyOf);
  if (keys.length > 0 && end - start > STATS_MAX_RANGE_DAYS * DAY)
    throw new InvalidRequestError(`with group_by the date range cannot exceed ${STATS_MAX_RANGE_DAYS} days`);
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
  const result = await spans.stats({
    projectId: req.project_id,
    where: req.query ? compileQuery(req.query, spanFieldCatalog) : null,
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
      for (const { output, type } of outputs) {
        const v = values?.[output.name] ?? null;
        row[output.name] =
          v === null
            ? ZERO_WHEN_EMPTY.has(output.aggregation)
              ? 0
              : null
            : type === 'datetime'
              ? formatTimestamp(v)
              : readable(v);
      }
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
      ...outputs.map((o) => ({
        name: o.output.name,
        role: 'metric' as const,
        value_type: o.type,
        metric: o.metric,
        aggregation: o.output.percentile === null ? o.output.aggregation : o.output.name.split('_')[0]!,
      })),
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
