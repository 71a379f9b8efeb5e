// /agents/spans/stats on SQLite (storage/span-store.ts SpanStatsQuery): the top groups by span
// count, then one row per (bucket, kept group) that holds spans, each output aggregated over
// the spans where its value is present. Percentiles use SQLite's percentile() (exact, linear
// interpolation). Values reach SQL only as parameters; identifiers come from allow-lists.
import type { SpanStatsQuery, SpanStatsResult, StatsOutput, StatsValue } from '../../span-store.js';
import type { SqliteDb } from '../engine/database.js';
import { type FieldPrinter, sqliteJsonField } from '../engine/dialect.js';
import { spanWhere } from './span-groups.js';

interface Piece {
  readonly sql: string;
  readonly params: unknown[];
}

const piece = (sql: string, params: unknown[] = []): Piece => ({ sql, params });

/** The value (m) and whether the span has it (v), over `spans AS s`. */
function valueSql(v: StatsValue): { m: Piece; v: Piece } {
  if (v.kind === 'column') return { m: piece(`s."${v.name}"`), v: piece(`s."${v.name}" IS NOT NULL`) };
  if (v.kind === 'custom') {
    const f = sqliteJsonField(`s.${v.column}`, [v.key]);
    const typed =
      v.column === 'custom_attrs_bool'
        ? `((${f.sql}) = 'true')`
        : v.column === 'custom_attrs_string'
          ? `(${f.sql})`
          : `CAST(${f.sql} AS REAL)`;
    return { m: piece(typed, [...f.params]), v: piece(f.exists!.sql, [...f.exists!.params]) };
  }
  switch (v.name) {
    case 'duration_ms':
      return {
        m: piece('(s.ended_at - s.started_at) / 1000.0'),
        v: piece('s.ended_at IS NOT NULL AND s.ended_at > s.started_at'),
      };
    case 'total_tokens':
      return {
        m: piece(
          'CASE WHEN s.tokens_counted = 1 THEN coalesce(s.input_tokens, 0) + coalesce(s.output_tokens, 0) ELSE 0 END',
        ),
        v: piece('1'),
      };
    case 'is_error':
      return { m: piece("(s.status_code = 'ERROR')"), v: piece('1') };
    case 'is_invocation':
      return { m: piece("coalesce(s.operation_name = 'invoke_agent', 0)"), v: piece('1') };
  }
}

function aggregate(o: StatsOutput, i: number): string {
  const m = `x.m${i}`;
  const v = `x.v${i}`;
  if (o.percentile !== null) return `percentile(CASE WHEN ${v} THEN ${m} END, ${Number(o.percentile)})`;
  switch (o.aggregation) {
    case 'sum':
    case 'avg':
    case 'min':
    case 'max':
      return `${o.aggregation}(CASE WHEN ${v} THEN ${m} END)`;
    case 'count':
      return `sum(CASE WHEN ${v} THEN 1 ELSE 0 END)`;
    case 'count_distinct':
      return `count(DISTINCT CASE WHEN ${v} THEN ${m} END)`;
    case 'count_true':
      return `sum(CASE WHEN ${v} AND ${m} THEN 1 ELSE 0 END)`;
    case 'count_false':
      return `sum(CASE WHEN ${v} AND NOT ${m} THEN 1 ELSE 0 END)`;
  }
  throw new Error(`unknown aggregation ${o.aggregation}`);
}

export function createSqliteSpanStats(db: SqliteDb, printField: FieldPrinter) {
  return (q: SpanStatsQuery): SpanStatsResult => {
    const where = spanWhere({ ...q, startedAfter: q.start, startedBefore: q.end }, printField);
    const keys = q.keys.map((k) => printField(k.field));
    const keySelect = keys.map((k, i) => ({ sql: `${k.sql} AS k${i}`, params: k.params }));
    const keyNames = keys.map((_, i) => `k${i}`);
    let groups: Record<string, string | number | null>[] = [{}];
    let top: Piece | null = null;
    if (keys.length > 0) {
      top = {
        sql: `SELECT ${keySelect.map((k) => k.sql).join(', ')} FROM spans AS s WHERE ${where.sql} GROUP BY ${keyNames.join(', ')} ORDER BY count(*) DESC, ${keyNames.join(', ')} LIMIT ?`,
        params: [...keySelect.flatMap((k) => k.params), ...where.params, q.groupLimit],
      };
      const rows = db.prepare(top.sql).all(...top.params) as Record<string, string | number | null>[];
      groups = rows.map((r) => Object.fromEntries(q.keys.map((k, i) => [k.alias, r[`k${i}`] ?? null])));
    }
    const values = q.outputs.flatMap((o, i) => {
      const { m, v } = valueSql(o.value);
      return [piece(`${m.sql} AS m${i}`, m.params), piece(`(${v.sql}) AS v${i}`, v.params)];
    });
    const inner = piece(
      `SELECT (s.started_at - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS b${[...keySelect, ...values].map((k) => `, ${k.sql}`).join('')} FROM spans AS s WHERE ${where.sql}`,
      [q.origin, q.width, ...[...keySelect, ...values].flatMap((k) => k.params), ...where.params],
    );
    const join =
      top === null ? '' : ` JOIN (${top.sql}) AS t ON ${keyNames.map((k) => `x.${k} IS t.${k}`).join(' AND ')}`;
    const rows = db
      .prepare(
        `SELECT x.b AS b${keyNames.map((k) => `, x.${k} AS ${k}`).join('')}${q.outputs
          .map((o, i) => `, ${aggregate(o, i)} AS o${i}`)
          .join('')} FROM (${inner.sql}) AS x${join} GROUP BY ${['x.b', ...keyNames.map((k) => `x.${k}`)].join(', ')}`,
      )
      .all(...inner.params, ...(top?.params ?? [])) as Record<string, string | number | null>[];
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
