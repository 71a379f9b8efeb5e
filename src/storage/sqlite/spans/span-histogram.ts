// Numeric histograms of agent spans on SQLite (storage/spans/span-filters.ts SpanHistogramQuery): the
// rows (spans with the value, or groups with their measure), their bounds, then each bin's
// outputs over the rows within the bounds. Values reach SQL only as parameters.
import type { SpanHistogramQuery, SpanHistogramResult } from '../../spans/span-filters.js';
import type { FieldPrinter } from '../engine/dialect.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { histogramCells } from '../../spans/span-filter-rows.js';
import { aggregateSql, piece, valueSql, type Piece } from './span-aggregates.js';
import { havingSql, measureSql } from './span-filters.js';
import { spanWhere } from './span-groups.js';

type Row = Record<string, number | null>;

/** The rows as `SELECT x[, m<i>, v<i>]...`: one per span with the value, or one per group. */
function rowsSql(q: SpanHistogramQuery, printField: FieldPrinter): Piece {
  const where = spanWhere({ ...q, startedAfter: q.start, startedBefore: q.end }, printField);
  const src = q.source;
  if (src.kind === 'value') {
    const { m, v } = valueSql(src.value);
    const outs = q.outputs.flatMap((o, i) => {
      const x = valueSql(o.value);
      return [piece(`${x.m.sql} AS m${i}`, x.m.params), piece(`(${x.v.sql}) AS v${i}`, x.v.params)];
    });
    return piece(
      `SELECT ${m.sql} AS x${outs.map((o) => `, ${o.sql}`).join('')} FROM spans AS s WHERE ${where.sql} AND (${v.sql}) AND (${m.sql}) IS NOT NULL`,
      [...m.params, ...outs.flatMap((o) => o.params), ...where.params, ...v.params, ...m.params],
    );
  }
  const keys = src.keys.map((k) => printField(k));
  const agg = measureSql(src.measure, printField);
  const having = havingSql(src.bounds, printField);
  return piece(
    `SELECT ${agg.sql} AS x${keys.map((k, i) => `, ${k.sql} AS k${i}`).join('')} FROM spans AS s WHERE ${where.sql} GROUP BY ${keys.map((_, i) => `k${i}`).join(', ')}${having === null ? '' : ` HAVING ${having.sql}`}`,
    [...agg.params, ...keys.flatMap((k) => k.params), ...where.params, ...(having?.params ?? [])],
  );
}

export function createSqliteSpanHistogram(reads: ReadThreads, printField: FieldPrinter) {
  return async (q: SpanHistogramQuery): Promise<SpanHistogramResult> => {
    const rows = rowsSql(q, printField);
    const [bounds] = await reads.all<Row>(
      `SELECT min(x) AS lo, max(x) AS hi, count(*) AS n FROM (${rows.sql}) AS r`,
      rows.params,
    );
    const n = Number(bounds?.n ?? 0);
    const lo = q.min ?? bounds?.lo ?? null;
    const hi = q.max ?? bounds?.hi ?? null;
    if (n === 0 || lo === null || hi === null) return { rows: n, lo, hi, cells: [] };
    const outputs =
      q.source.kind === 'groups'
        ? [piece('count(*) AS o0')]
        : q.outputs.map((o, i) => {
            const a = aggregateSql(o, piece(`r.m${i}`), piece(`r.v${i}`));
            return piece(`${a.sql} AS o${i}`, a.params);
          });
    const names = q.source.kind === 'groups' ? ['count'] : q.outputs.map((o) => o.name);
    const width = hi > lo ? (hi - lo) / q.bins : 1;
    const found = await reads.all<Row>(
      `SELECT CASE WHEN ? THEN 0 ELSE min(? - 1, CAST((r.x - ?) / ? AS INTEGER)) END AS b${outputs.map((o) => `, ${o.sql}`).join('')}
       FROM (${rows.sql}) AS r WHERE r.x >= ? AND r.x <= ? GROUP BY b`,
      [hi === lo ? 1 : 0, q.bins, lo, width, ...outputs.flatMap((o) => o.params), ...rows.params, lo, hi],
    );
    return {
      rows: n,
      lo,
      hi,
      cells: histogramCells(names, found),
    };
  };
}
