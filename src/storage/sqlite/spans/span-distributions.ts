// Custom attribute distributions per group on SQLite (storage/spans/span-filters.ts
// SpanDistributionsQuery): one statement per spec over the spans of the page's groups, as the
// group read filters them. Numeric specs: each group's bounds, then the count per bin; categorical
// specs: the most frequent values per group, ranked in SQL so a key with many distinct values
// sends back only `limit` rows per group. Values reach SQL only as parameters.
import type {
  SpanDistributionsQuery,
  SpanDistributionsResult,
  SpanDistributionSpec,
} from '../../spans/span-filters.js';
import type { FieldPrinter } from '../engine/dialect.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { categoricalRows, numericRows } from '../../spans/span-filter-rows.js';
import { piece, valueSql, type Piece } from './span-aggregates.js';
import { spanWhere } from './span-groups.js';

type Row = Record<string, string | number | null>;
const NUMERIC = new Set(['custom_attrs_int', 'custom_attrs_float']);

export function createSqliteSpanDistributions(reads: ReadThreads, printField: FieldPrinter) {
  return async (q: SpanDistributionsQuery): Promise<SpanDistributionsResult> => {
    const out: { numeric: SpanDistributionsResult['numeric']; categorical: SpanDistributionsResult['categorical'] } = {
      numeric: [],
      categorical: [],
    };
    if (q.groups.length === 0) return out;
    const where = spanWhere(q, printField);
    const key = printField(q.key);
    const known = q.groups.filter((g) => g !== null);
    // The page's groups; a NULL key is a group of its own.
    const inGroups = piece(
      `((${key.sql}) IN (SELECT value FROM json_each(?))${known.length < q.groups.length ? ` OR (${key.sql}) IS NULL` : ''})`,
      [...key.params, JSON.stringify(known), ...(known.length < q.groups.length ? key.params : [])],
    );
    /** The spans of the groups carrying the spec's key: group `g` and value `x`. */
    const rows = (spec: SpanDistributionSpec, value: (m: Piece) => Piece): Piece => {
      const { m, v } = valueSql({ kind: 'custom', column: spec.column, key: spec.key });
      const x = value(m);
      return piece(
        `SELECT ${key.sql} AS g, ${x.sql} AS x FROM spans AS s WHERE ${where.sql} AND ${inGroups.sql} AND ${v.sql}`,
        [...key.params, ...x.params, ...where.params, ...inGroups.params, ...v.params],
      );
    };
    await Promise.all(
      q.specs.map(async (spec) => {
        if (NUMERIC.has(spec.column)) {
          const v = rows(spec, (m) => m);
          const found = await reads.all<Row>(
            `SELECT g, lo, hi, n, CASE WHEN hi = lo THEN 0 ELSE min(? - 1, CAST((x - lo) / ((hi - lo) / ?) AS INTEGER)) END AS i, count(*) AS c
             FROM (SELECT g, x, min(x) OVER w AS lo, max(x) OVER w AS hi, count(*) OVER w AS n
                   FROM (${v.sql}) WHERE x IS NOT NULL WINDOW w AS (PARTITION BY g))
             GROUP BY g, lo, hi, n, i`,
            [spec.limit, spec.limit, ...v.params],
          );
          out.numeric.push(...numericRows(spec.alias, found));
          return;
        }
        const bool = spec.column === 'custom_attrs_bool';
        const v = rows(spec, (m) => (bool ? piece(`CASE WHEN ${m.sql} THEN 'true' ELSE 'false' END`, m.params) : m));
        const found = await reads.all<Row>(
          `SELECT g, x, c, p FROM (
             SELECT g, x, c, sum(c) OVER (PARTITION BY g) AS p, row_number() OVER (PARTITION BY g ORDER BY c DESC, x ASC) AS r
             FROM (SELECT g, x, count(*) AS c FROM (${v.sql}) GROUP BY g, x)
           ) WHERE r <= ?`,
          [...v.params, spec.limit],
        );
        out.categorical.push(...categoricalRows(spec.alias, found));
      }),
    );
    return out;
  };
}
