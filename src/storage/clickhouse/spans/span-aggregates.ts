// How ClickHouse aggregates a span value (storage/spans/span-store.ts StatsValue / StatsOutput),
// shared by /agents/spans/stats and the measures of /agents/spans/query, as SQLite's
// span-aggregates.ts. Values travel as bound parameters.
import type { StatsOutput, StatsValue } from '../../spans/span-measures.js';
import { type ChParams, chIdentifier, chJsonField } from '../engine/dialect.js';

/** The value (m) and whether the span has it (v), over `s`. */
export function valueSql(v: StatsValue | null, params: ChParams): { m: string; v: string } {
  if (v === null) return { m: '1', v: '1' };
  if (v.kind === 'column') {
    const c = `s.${chIdentifier(v.name)}`;
    return { m: c, v: `${c} IS NOT NULL` };
  }
  if (v.kind === 'custom') {
    const f = chJsonField(`s.${v.column}`, [v.key], params, true);
    const m =
      v.column === 'custom_attrs_bool'
        ? `(${f.sql}) = 'true'`
        : v.column === 'custom_attrs_string'
          ? f.sql
          : `toFloat64OrNull(${f.sql})`;
    return { m, v: f.exists! };
  }
  switch (v.name) {
    case 'duration_ms':
      return { m: '(s.ended_at - s.started_at) / 1000', v: 's.ended_at IS NOT NULL AND s.ended_at > s.started_at' };
    case 'total_tokens':
      return {
        m: 'if(s.tokens_counted = 1, coalesce(s.input_tokens, 0) + coalesce(s.output_tokens, 0), 0)',
        v: '1',
      };
    case 'is_error':
      return { m: "s.status_code = 'ERROR'", v: '1' };
    case 'is_invocation':
      return { m: "coalesce(s.operation_name = 'invoke_agent', 0)", v: '1' };
  }
}

/** An output aggregated over the rows where `v` holds, `m` the value (StatsOutput's contract). */
export function aggregateSql(o: Pick<StatsOutput, 'aggregation' | 'percentile'>, m: string, v: string): string {
  if (o.percentile !== null) return `quantileExactInclusiveOrNull(${o.percentile / 100})(if(${v}, ${m}, NULL))`;
  switch (o.aggregation) {
    case 'sum':
    case 'avg':
    case 'min':
    case 'max':
      return `${o.aggregation}OrNull(if(${v}, ${m}, NULL))`;
    case 'count':
      return `countIf(${v})`;
    case 'count_distinct':
      return `uniqExactIf(${m}, ${v})`;
    case 'count_true':
      return `countIf(${v} AND ${m} = 1)`;
    case 'count_false':
      return `countIf(${v} AND ${m} = 0)`;
  }
  throw new Error(`unknown aggregation ${o.aggregation}`);
}
