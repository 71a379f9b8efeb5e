// Weave's numeric buckets of /agents/spans/stats (AgentSpanStatsNumericBucketSpec): a histogram
// of one number, per span (`value`) or per group (`group_by` + `measure`, after the group
// filters), in `bins` equal bins between `min` and `max` (the rows' smallest and largest value
// by default). Rows: bucket_index, bucket_min, bucket_max and the metrics (per-span mode) or
// `count` (spans without metrics, groups always); every bin when max > min, else bin 0 only;
// no rows without values. The bucket's `alias` is accepted and, as in Weave, names no column.
import type { Static } from 'typebox';
import { NUMERIC_BUCKET_BINS } from '../../api/agent-span-filters.js';
import type { AgentSpanStatsReq } from '../../api/agents-stats.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { Expr } from '../../query/plan.js';
import type { SpanHistogramQuery, SpanSignalFilter } from '../../storage/spans/span-filters.js';
import type { SpanStore } from '../../storage/spans/span-store.js';
import { formatTimestamp } from '../../time.js';
import { keyOf } from './span-groups.js';
import { boundOf, measureOf, sameGrouping } from './span-measures.js';
import { spanValue } from './span-values.js';
import { cellOf, metricColumn, type StatsOutputSpec } from './stats-outputs.js';

type Req = Static<typeof AgentSpanStatsReq>;
type Numeric = Extract<NonNullable<Req['bucket_by']>, { type: 'number' }>;

interface Context {
  readonly start: number;
  readonly end: number;
  readonly where: Expr | null;
  readonly signals: SpanSignalFilter | null;
  /** Insights filters leave no span. */
  readonly nothing: boolean;
  readonly outputs: readonly StatsOutputSpec[];
}

/** What the histogram counts: a span value, or a measure per group (bounded by the group filters). */
function sourceOf(req: Req, b: Numeric): SpanHistogramQuery['source'] {
  const grouped = (b.group_by?.length ?? 0) > 0;
  const hasMeasure = b.measure !== undefined && b.measure !== null;
  const hasValue = b.value !== undefined && b.value !== null;
  if (Number(hasValue) + Number(grouped || hasMeasure) !== 1)
    throw new InvalidRequestError('exactly one of value or group_by/measure must be set');
  if (grouped !== hasMeasure) throw new InvalidRequestError('numeric group bucket must set both group_by and measure');
  const filters = req.group_filters ?? [];
  if (hasValue) {
    if (filters.length > 0)
      throw new InvalidRequestError('group_filters are only supported for time stats or grouped numeric bucket stats');
    const source = b.value!.source ?? 'field';
    if (source === 'custom_attrs_string' || source === 'custom_attrs_bool')
      throw new InvalidRequestError('numeric bucket value must be numeric');
    const { value, type } = spanValue(b.value!, 'bucket_by.value');
    if (type !== 'number')
      throw new InvalidRequestError(`bucket_by.value: ${b.value!.key} has value_type ${type}, expected number`);
    return { kind: 'value', value };
  }
  if ((req.metrics?.length ?? 0) > 0)
    throw new InvalidRequestError('grouped numeric bucket stats do not support explicit metrics');
  const { measure, type } = measureOf(b.measure!, 'bucket_by.measure');
  if (type !== 'number') throw new InvalidRequestError('numeric group bucket measure must produce a number');
  const bounds = filters.map((f, i) => {
    if ((f.group_by?.length ?? 0) > 0 && !sameGrouping(f.group_by!, b.group_by!))
      throw new InvalidRequestError(`group_filters[${i}]: numeric bucket group_filters must use the same group_by`);
    return boundOf(f, `group_filters[${i}]`);
  });
  return { kind: 'groups', keys: b.group_by!.map((r, i) => keyOf(r, i).field), measure, bounds };
}

export async function numericStats(spans: SpanStore, req: Req, b: Numeric, c: Context) {
  const source = sourceOf(req, b);
  const min = b.min ?? null;
  const max = b.max ?? null;
  if (min !== null && max !== null && max < min)
    throw new InvalidRequestError('numeric bucket max must be greater than or equal to min');
  const bins = b.bins ?? NUMERIC_BUCKET_BINS.default;
  const count: StatsOutputSpec = {
    output: { name: 'count', value: null, aggregation: 'count', percentile: null },
    type: 'number',
    metric: 'rows',
  };
  const outputs: readonly StatsOutputSpec[] = source.kind === 'groups' || c.outputs.length === 0 ? [count] : c.outputs;
  const h = c.nothing
    ? { rows: 0, lo: null, hi: null, cells: [] }
    : await spans.histogram({
        projectId: req.project_id,
        where: c.where,
        start: c.start,
        end: c.end,
        signals: c.signals,
        source,
        bins,
        min,
        max,
        outputs: source.kind === 'groups' ? [] : outputs.map((o) => o.output),
      });
  const rows: Record<string, unknown>[] = [];
  if (h.rows > 0 && h.lo !== null && h.hi !== null) {
    const { lo, hi } = h;
    const width = hi > lo ? (hi - lo) / bins : 1;
    const cells = new Map(h.cells.map((x) => [x.bin, x.values]));
    for (let i = 0; i < (hi > lo ? bins : 1); i++) {
      const row: Record<string, unknown> = {
        bucket_index: i,
        bucket_min: hi === lo ? lo : lo + i * width,
        bucket_max: hi === lo ? hi : i === bins - 1 ? hi : lo + (i + 1) * width,
      };
      for (const o of outputs) row[o.output.name] = cellOf(o, cells.get(i)?.[o.output.name]);
      rows.push(row);
    }
  }
  const bucket = (name: string) => ({
    name,
    role: 'bucket' as const,
    value_type: 'number' as const,
    metric: null,
    aggregation: null,
  });
  return {
    start: formatTimestamp(c.start),
    end: formatTimestamp(c.end),
    granularity: null,
    timezone: req.timezone ?? 'UTC',
    bucket_type: 'number' as const,
    columns: [bucket('bucket_index'), bucket('bucket_min'), bucket('bucket_max'), ...outputs.map(metricColumn)],
    rows,
  };
}
