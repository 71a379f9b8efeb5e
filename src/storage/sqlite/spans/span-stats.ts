// /agents/spans/stats on SQLite (storage/span-store.ts SpanStatsQuery): the top groups by span
// count, then one row per (bucket, kept group) that holds spans, each output aggregated over
// the spans where its value is present. Percentiles use SQLite's percentile() (exact, linear
// interpolation). Values reach SQL only as parameters; identifiers come from allow-lists.
import type { SpanStatsQuery, SpanStatsResult } from '../../span-store.js';
import type { ReadThreads } from '../engine/read-threads.js';
import type { FieldPrinter } from '../engine/dialect.js';
import { aggregateSql, piece, valueSql } from './span-aggregates.js';
import { spanWhere } from './span-groups.js';
import { groupFilterChain } from './span-filters.js';

export function createSqliteSpanStats(reads: ReadThreads, printField: FieldPrinter) {
  return async (q: SpanStatsQuery): Promise<SpanStatsResult> => {
    const where = spanWhere({ ...q, startedAfter: q.start, startedBefore: q.end }, printField);
    // With group filters the spans come from a WITH chain (span-filters.ts) opening the statement.
    const chain =
      (q.groupFilters?.length ?? 0) > 0
        ? groupFilterChain(piece(where.sql, where.params), q.groupFilters!, printField)
        : null;
    const prefix = chain === null ? piece('') : piece(`${chain.with.sql} `, chain.with.params);
    const from = chain === null ? piece(`spans AS s WHERE ${where.sql}`, where.params) : piece(`${chain.table} AS s`);
    const keys = q.keys.map((k) => printField(k.field));
    const keySelect = keys.map((k, i) => ({ sql: `${k.sql} AS k${i}`, params: k.params }));
    const keyNames = keys.map((_, i) => `k${i}`);
    let groups: Record<string, string | number | null>[] = [{}];
    let top: ReturnType<typeof piece> | null = null;
    if (keys.length > 0) {
      top = {
        sql: `SELECT ${keySelect.map((k) => k.sql).join(', ')} FROM ${from.sql} GROUP BY ${keyNames.join(', ')} ORDER BY count(*) DESC, ${keyNames.join(', ')} LIMIT ?`,
        params: [...keySelect.flatMap((k) => k.params), ...from.params, q.groupLimit],
      };
      const rows = await reads.all<Record<string, string | number | null>>(prefix.sql + top.sql, [
        ...prefix.params,
        ...top.params,
      ]);
      groups = rows.map((r) => Object.fromEntries(q.keys.map((k, i) => [k.alias, r[`k${i}`] ?? null])));
    }
    const values = q.outputs.flatMap((o, i) => {
      const { m, v } = valueSql(o.value);
      return [piece(`${m.sql} AS m${i}`, m.params), piece(`(${v.sql}) AS v${i}`, v.params)];
    });
    const inner = piece(
      `SELECT (s.started_at - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS b${[...keySelect, ...values].map((k) => `, ${k.sql}`).join('')} FROM ${from.sql}`,
      [q.origin, q.width, ...[...keySelect, ...values].flatMap((k) => k.params), ...from.params],
    );
    const join =
      top === null ? '' : ` JOIN (${top.sql}) AS t ON ${keyNames.map((k) => `x.${k} IS t.${k}`).join(' AND ')}`;
    const rows = await reads.all<Record<string, string | number | null>>(
      `${prefix.sql}SELECT x.b AS b${keyNames.map((k) => `, x.${k} AS ${k}`).join('')}${q.outputs
        .map((o, i) => `, ${aggregateSql(o, piece(`x.m${i}`), piece(`x.v${i}`)).sql} AS o${i}`)
        .join('')} FROM (${inner.sql}) AS x${join} GROUP BY ${['x.b', ...keyNames.map((k) => `x.${k}`)].join(', ')}`,
      [...prefix.params, ...inner.params, ...(top?.params ?? [])],
    );
    return {
      groups,
      cells: rows.map((r) => ({
        bucket: Number(r.b),
        keys: Object.fromEntries(q.keys.map((k, i) => [k.alias, r[`k${i}`] ?? null])),
        values: Object.fromEntries(q.outputs.map((o, i) => [o.name, r[`o${i}`] === null ? null : Number(r[`o${i}`])])),
      })),
    };
  };
}
