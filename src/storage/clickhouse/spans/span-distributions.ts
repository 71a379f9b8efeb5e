// Custom attribute distributions per group on ClickHouse, as sqlite/spans/span-distributions.ts:
// one statement per spec over the newest rows (FINAL) of the page's groups' spans. The groups
// are matched as text (toString, the one type every key has) with NULL keys apart.
import type { ClickHouseClient } from '@clickhouse/client';
import type {
  SpanDistributionsQuery,
  SpanDistributionsResult,
  SpanDistributionSpec,
} from '../../spans/span-filters.js';
import { selectRows } from '../engine/client.js';
import { ChParams, type ChFieldPrinter } from '../engine/dialect.js';
import { categoricalRows, numericRows } from '../../spans/span-filter-rows.js';
import { valueSql } from './span-aggregates.js';
import { chSpanWhere } from './span-groups.js';

type Row = Record<string, string | number | null>;
const NUMERIC = new Set(['custom_attrs_int', 'custom_attrs_float']);

export function createClickHouseSpanDistributions(
  client: ClickHouseClient,
  table: string,
  feedback: string,
  printField: ChFieldPrinter,
) {
  /** The spans of the groups carrying the spec's key: group `g` and value `x` (`value` of the typed value). */
  function rows(q: SpanDistributionsQuery, spec: SpanDistributionSpec, value: (m: string) => string, params: ChParams) {
    const where = chSpanWhere(q, feedback, printField, params);
    const key = printField(q.key, params).sql;
    const known = q.groups.filter((g) => g !== null).map(String);
    const nulls = known.length < q.groups.length ? ` OR isNull(${key})` : '';
    const { m, v } = valueSql({ kind: 'custom', column: spec.column, key: spec.key }, params);
    return `SELECT ${key} AS g, ${value(m)} AS x FROM ${table} AS s FINAL WHERE ${where} AND (toString(${key}) IN ${params.add(known, 'Array(String)')}${nulls}) AND ${v}`;
  }

  return async (q: SpanDistributionsQuery): Promise<SpanDistributionsResult> => {
    const out: { numeric: SpanDistributionsResult['numeric']; categorical: SpanDistributionsResult['categorical'] } = {
      numeric: [],
      categorical: [],
    };
    if (q.groups.length === 0) return out;
    await Promise.all(
      q.specs.map(async (spec) => {
        const params = new ChParams();
        if (NUMERIC.has(spec.column)) {
          const v = rows(q, spec, (m) => m, params);
          const bins = params.add(spec.limit, 'Int64');
          const found = await selectRows<Row>(
            client,
            `SELECT g, lo, hi, n, if(hi = lo, 0, toInt64(least(toFloat64(${bins}) - 1, floor((x - lo) / ((hi - lo) / ${bins}))))) AS i, count() AS c
             FROM (SELECT g, x, min(x) OVER w AS lo, max(x) OVER w AS hi, count() OVER w AS n
                   FROM (${v}) WHERE isNotNull(x) AND isFinite(x) WINDOW w AS (PARTITION BY g))
             GROUP BY g, lo, hi, n, i`,
            params.values,
          );
          out.numeric.push(...numericRows(spec.alias, found));
          return;
        }
        const bool = spec.column === 'custom_attrs_bool';
        const v = rows(q, spec, (m) => (bool ? `if(${m}, 'true', 'false')` : m), params);
        const found = await selectRows<Row>(
          client,
          `SELECT g, x, c, p FROM (
             SELECT g, x, c, sum(c) OVER (PARTITION BY g) AS p, row_number() OVER (PARTITION BY g ORDER BY c DESC, x ASC) AS r
             FROM (SELECT g, x, count() AS c FROM (${v}) GROUP BY g, x)
           ) WHERE r <= ${params.add(spec.limit, 'Int64')}`,
          params.values,
        );
        out.categorical.push(...categoricalRows(spec.alias, found));
      }),
    );
    return out;
  };
}
