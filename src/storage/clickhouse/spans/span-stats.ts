// /agents/spans/stats on ClickHouse: as sqlite/spans/span-stats.ts, over the newest row of each
// span (FINAL). Percentiles are exact (quantileExactInclusive: linear interpolation, as
// SQLite's percentile()). A kept group with a NULL key matches its spans (transform_null_in).
import type { ClickHouseClient } from '@clickhouse/client';
import type { SpanStatsQuery, SpanStatsResult } from '../../spans/span-store.js';
import { aggregateSql, valueSql } from './span-aggregates.js';
import { selectRows } from '../engine/client.js';
import { ChParams, type ChFieldPrinter } from '../engine/dialect.js';
import { chSpanWhere } from './span-groups.js';
import { groupFilterChain } from './span-filters.js';

type DbRow = Record<string, string | number | null>;

export function createClickHouseSpanStats(
  client: ClickHouseClient,
  table: string,
  feedback: string,
  printField: ChFieldPrinter,
) {
  return async (q: SpanStatsQuery): Promise<SpanStatsResult> => {
    const params = new ChParams();
    const where = chSpanWhere({ ...q, startedAfter: q.start, startedBefore: q.end }, feedback, printField, params);
    // With group filters the spans come from a WITH chain (span-filters.ts) opening the statement.
    const chain =
      (q.groupFilters?.length ?? 0) > 0 ? groupFilterChain(table, where, q.groupFilters!, printField, params) : null;
    const prefix = chain === null ? '' : `${chain.with} `;
    const from = chain === null ? `${table} AS s FINAL WHERE ${where}` : `${chain.table} AS s`;
    const keys = q.keys.map((k, i) => `${printField(k.field, params).sql} AS k${i}`);
    const names = keys.map((_, i) => `k${i}`);
    const top =
      keys.length === 0
        ? null
        : `SELECT ${keys.join(', ')} FROM ${from} GROUP BY ${names.join(', ')} ORDER BY count() DESC, ${names.join(', ')} LIMIT ${params.add(q.groupLimit, 'Int64')}`;
    const groups =
      top === null
        ? [{}]
        : (await selectRows<DbRow>(client, prefix + top, params.values)).map((r) =>
            Object.fromEntries(q.keys.map((k, i) => [k.alias, r[`k${i}`] ?? null])),
          );
    const values = q.outputs.flatMap((o, i) => {
      const { m, v } = valueSql(o.value, params);
      return [`${m} AS m${i}`, `toUInt8(${v}) AS v${i}`];
    });
    const bucket = `intDiv(s.started_at - ${params.add(q.origin, 'Int64')}, ${params.add(q.width, 'Int64')}) AS b`;
    const inner = `SELECT ${[bucket, ...keys, ...values].join(', ')} FROM ${from}`;
    const kept = top === null ? '' : ` WHERE (${names.join(', ')}) IN (SELECT ${names.join(', ')} FROM (${top}))`;
    const rows = await selectRows<DbRow>(
      client,
      `${prefix}SELECT ${['b', ...names, ...q.outputs.map((o, i) => `${aggregateSql(o, `m${i}`, `v${i}`)} AS o${i}`)].join(', ')} FROM (${inner})${kept} GROUP BY ${['b', ...names].join(', ')} SETTINGS transform_null_in = 1`,
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
