// /agents/spans/stats on SQLite (storage/spans/span-store.ts SpanStatsQuery): one row per (bucket,
// group) that holds spans, of the groups with the most spans, each output aggregated over
// the spans where its value is present. Percentiles use SQLite's percentile() (exact, linear
// interpolation). Values reach SQL only as parameters; identifiers come from allow-lists.
import type { SpanStatsQuery, SpanStatsResult } from '../../spans/span-store.js';
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
    const values = q.outputs.flatMap((o, i) => {
      const { m, v } = valueSql(o.value);
      return [piece(`${m.sql} AS m${i}`, m.params), piece(`(${v.sql}) AS v${i}`, v.params)];
    });
    const inner = piece(
      `SELECT (s.started_at - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS b${[...keySelect, ...values].map((k) => `, ${k.sql}`).join('')} FROM ${from.sql}`,
      [q.origin, q.width, ...[...keySelect, ...values].flatMap((k) => k.params), ...from.params],
    );
    const cells = `SELECT x.b AS b${keyNames.map((k) => `, x.${k} AS ${k}`).join('')}, count(*) AS n${q.outputs
      .map((o, i) => `, ${aggregateSql(o, piece(`x.m${i}`), piece(`x.v${i}`)).sql} AS o${i}`)
      .join('')} FROM (${inner.sql}) AS x GROUP BY ${['x.b', ...keyNames.map((k) => `x.${k}`)].join(', ')}`;
    let rows: Record<string, string | number | null>[];
    if (keys.length === 0) {
      rows = await reads.all(prefix.sql + cells, [...prefix.params, ...inner.params]);
    } else {
      // One pass over the spans: the cells of every group, then the groups with the most spans
      // ranked from the cells (reading the spans again for the ranking doubled the time).
      const on = keyNames.map((k) => `c.${k} IS t.${k}`).join(' AND ');
      rows = await reads.all(
        `${prefix.sql === '' ? 'WITH ' : `${prefix.sql}, `}cells AS MATERIALIZED (${cells}),
         top AS (SELECT ${keyNames.join(', ')}, row_number() OVER (ORDER BY sum(n) DESC, ${keyNames.join(', ')}) AS r
                 FROM cells GROUP BY ${keyNames.join(', ')} ORDER BY r LIMIT ?)
         SELECT c.*, t.r AS r FROM cells AS c JOIN top AS t ON ${on} ORDER BY t.r, c.b`,
        [...prefix.params, ...inner.params, q.groupLimit],
      );
    }
    const ranked = new Map<unknown, Record<string, string | number | null>>();
    for (const r of rows) if (!ranked.has(r.r)) ranked.set(r.r, r);
    const groups =
      keys.length === 0
        ? [{}]
        : [...ranked.values()].map((r) => Object.fromEntries(q.keys.map((k, i) => [k.alias, r[`k${i}`] ?? null])));
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
