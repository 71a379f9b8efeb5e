// /agents/spans/stats on ClickHouse: as sqlite/spans/span-stats.ts, over the newest row of each
// span (FINAL). Percentiles are exact (quantileExactInclusive: linear interpolation, as
// SQLite's percentile()). A kept group with a NULL key matches its spans (transform_null_in).
import type { ClickHouseClient } from '@clickhouse/client';
import type { SpanStatsQuery, SpanStatsResult, StatsOutput, StatsValue } from '../../span-store.js';
import { selectRows } from '../engine/client.js';
import { ChParams, chIdentifier, chJsonField, printChExpr, type ChFieldPrinter } from '../engine/dialect.js';

/** The value (m) and whether the span has it (v), over `s`. */
function valueSql(v: StatsValue, params: ChParams): { m: string; v: string } {
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

function aggregate(o: StatsOutput, i: number): string {
  const [m, v] = [`m${i}`, `v${i}`];
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

type DbRow = Record<string, string | number | null>;

export function createClickHouseSpanStats(client: ClickHouseClient, table: string, printField: ChFieldPrinter) {
  return async (q: SpanStatsQuery): Promise<SpanStatsResult> => {
    const params = new ChParams();
    const where = [
      `s.project_id = ${params.add(q.projectId, 'String')}`,
      `s.started_at >= ${params.add(q.start, 'Int64')}`,
      `s.started_at < ${params.add(q.end, 'Int64')}`,
      ...(q.where === null ? [] : [printChExpr(q.where, printField, params)]),
    ].join(' AND ');
    const keys = q.keys.map((k, i) => `${printField(k.field, params).sql} AS k${i}`);
    const names = keys.map((_, i) => `k${i}`);
    const top =
      keys.length === 0
        ? null
        : `SELECT ${keys.join(', ')} FROM ${table} AS s FINAL WHERE ${where} GROUP BY ${names.join(', ')} ORDER BY count() DESC, ${names.join(', ')} LIMIT ${params.add(q.groupLimit, 'Int64')}`;
    const groups =
      top === null
        ? [{}]
        : (await selectRows<DbRow>(client, top, params.values)).map((r) =>
            Object.fromEntries(q.keys.map((k, i) => [k.alias, r[`k${i}`] ?? null])),
          );
    const values = q.outputs.flatMap((o, i) => {
      const { m, v } = valueSql(o.value, params);
      return [`${m} AS m${i}`, `toUInt8(${v}) AS v${i}`];
    });
    const bucket = `intDiv(s.started_at - ${params.add(q.origin, 'Int64')}, ${params.add(q.width, 'Int64')}) AS b`;
    const inner = `SELECT ${[bucket, ...keys, ...values].join(', ')} FROM ${table} AS s FINAL WHERE ${where}`;
    const kept = top === null ? '' : ` WHERE (${names.join(', ')}) IN (SELECT ${names.join(', ')} FROM (${top}))`;
    const rows = await selectRows<DbRow>(
      client,
      `SELECT ${['b', ...names, ...q.outputs.map((o, i) => `${aggregate(o, i)} AS o${i}`)].join(', ')} FROM (${inner})${kept} GROUP BY ${['b', ...names].join(', ')} SETTINGS transform_null_in = 1`,
      params.values,
    );
    return {
      groups,
      cells: rows.map((r) => ({
        bucket: Number(r.b),
        keys: Object.fromEntries(q.keys.map((k, i) => [k.alias, r[`k${i}`] ?? null])),
        values: Object.fromEntries(
          q.outputs.map((o, i) => {
            const x = r[`o${i}`];
            return [o.name, x === null || x === undefined ? null : Number(x)];
          }),
        ),
      })),
    };
  };
}
