// The outputs of /agents/spans/stats (time or numeric buckets): each metric's aggregations as
// `{aggregation}_{alias}` and percentiles as `p{n}_{alias}`, checked as Weave checks them, and
// how a cell reads (0 for sums and counts without spans, times in ISO 8601).
import type { Static } from 'typebox';
import type { AgentSpanStatsReq, StatsValueType } from '../../api/agents-stats.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { StatsOutput } from '../../storage/spans/span-measures.js';
import { formatTimestamp } from '../../time.js';
import { readable } from '../stats/time-buckets.js';
import { ALLOWED, spanValue } from './span-values.js';

type Metric = NonNullable<Static<typeof AgentSpanStatsReq>['metrics']>[number];
export interface StatsOutputSpec {
  readonly output: StatsOutput;
  readonly type: StatsValueType;
  /** The metric's alias. */
  readonly metric: string;
}

/** Outputs that read 0 in a bucket without spans (Weave coalesces these). */
const ZERO_WHEN_EMPTY = new Set(['sum', 'avg', 'count', 'count_distinct', 'count_true', 'count_false']);

export function outputsOf(metrics: readonly Metric[]): StatsOutputSpec[] {
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

/** A cell of an output: 0 for sums and counts without spans, times in ISO 8601. */
export function cellOf(o: { output: StatsOutput; type: StatsValueType }, v: number | null | undefined): unknown {
  if (v === null || v === undefined) return ZERO_WHEN_EMPTY.has(o.output.aggregation) ? 0 : null;
  return o.type === 'datetime' ? formatTimestamp(v) : readable(v);
}

/** The column of an output (Weave's AgentSpanStatsColumn, role metric). */
export function metricColumn(o: StatsOutputSpec) {
  return {
    name: o.output.name,
    role: 'metric' as const,
    value_type: o.type,
    metric: o.metric,
    aggregation: o.output.percentile === null ? o.output.aggregation : o.output.name.split('_')[0]!,
  };
}
