// Numeric histograms of agent spans on ClickHouse, as sqlite/spans/span-histogram.ts, over the
// newest row of each span (FINAL). Values travel as typed parameters.
import type { ClickHouseClient } from '@clickhouse/client';
import type { SpanHistogramQuery, SpanHistogramResult } from '../../spans/span-filters.js';
import { selectRows } from '../engine/client.js';
import { ChParams, type ChFieldPrinter } from '../engine/dialect.js';
import { histogramCells } from '../../spans/span-filter-rows.js';
import { aggregateSql, valueSql } from './span-aggregates.js';
import { havingSql, measureSql } from './span-filters.js';
import { chSpanWhere } from './span-groups.js';

type Row = Record<string, string | number | null>;
const num = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));

export function createClickHouseSpanHistogram(
  client: ClickHouseClient,
  table: string,
  feedback: string,
  printField: ChFieldPrinter,
) {
  /** The rows as `SELECT x[, m<i>, v<i>]...`: one per span with the value, or one per group. */
  function rowsSql(q: SpanHistogramQuery, params: ChParams): string {
    const where = chSpanWhere({ ...q, startedAfter: q.start, startedBefore: q.end }, feedback, printField, params);
    const src = q.source;
    if (src.kind === 'value') {
      const { m, v } = valueSql(src.value, params);
      const outs = q.outputs.flatMap((o, i) => {
        const x = valueSql(o.value, params);
        return [`${x.m} AS m${i}`, `toUInt8(${x.v}) AS v${i}`];
      });
      return `SELECT toFloat64(${m}) AS x${outs.map((o) => `, ${o}`).join('')} FROM ${table} AS s FINAL WHERE ${where} AND (${v}) AND isNotNull(${m}) AND isFinite(toFloat64(${m}))`;
    }
    const keys = src.keys.map((k, i) => `${printField(k, params).sql} AS k${i}`);
    const agg = measureSql(src.measure, printField, params);
    const having = havingSql(src.bounds, printField, params);
    return `SELECT toFloat64(${agg}) AS x, ${keys.join(', ')} FROM ${table} AS s FINAL WHERE ${where} GROUP BY ${keys.map((_, i) => `k${i}`).join(', ')}${having === null ? '' : ` HAVING ${having}`}`;
  }

  return async (q: SpanHistogramQuery): Promise<SpanHistogramResult> => {
    const params = new ChParams();
    const rows = rowsSql(q, params);
    const [bounds] = await selectRows<Row>(
      client,
      `SELECT min(x) AS lo, max(x) AS hi, count() AS n FROM (${rows})`,
      params.values,
    );
    const n = Number(bounds?.n ?? 0);
    const lo = q.min ?? num(bounds?.lo);
    const hi = q.max ?? num(bounds?.hi);
    if (n === 0 || lo === null || hi === null) return { rows: n, lo, hi, cells: [] };
    const names = q.source.kind === 'groups' ? ['count'] : q.outputs.map((o) => o.name);
    const outputs =
      q.source.kind === 'groups'
        ? ['count() AS o0']
        : q.outputs.map((o, i) => `${aggregateSql(o, `m${i}`, `v${i}`)} AS o${i}`);
    const l = params.add(lo, 'Float64');
    const h = params.add(hi, 'Float64');
    const width = params.add(hi > lo ? (hi - lo) / q.bins : 1, 'Float64');
    const bin =
      hi === lo ? '0' : `toInt64(least(toFloat64(${params.add(q.bins, 'Int64')}) - 1, floor((x - ${l}) / ${width})))`;
    const found = await selectRows<Row>(
      client,
      `SELECT ${bin} AS b, ${outputs.join(', ')} FROM (${rows}) WHERE x >= ${l} AND x <= ${h} GROUP BY b`,
      params.values,
    );
    return {
      rows: n,
      lo,
      hi,
      cells: histogramCells(names, found),
    };
  };
}
