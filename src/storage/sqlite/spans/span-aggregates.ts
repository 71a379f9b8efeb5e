// How SQLite aggregates a span value (storage/spans/span-store.ts StatsValue / StatsOutput), shared
// by /agents/spans/stats and the measures of /agents/spans/query. Values reach SQL only as
// parameters, in the order the text holds them.
import type { StatsOutput, StatsValue } from '../../spans/span-measures.js';
import { sqliteJsonField } from '../engine/dialect.js';

export interface Piece {
  readonly sql: string;
  readonly params: unknown[];
}

export const piece = (sql: string, params: unknown[] = []): Piece => ({ sql, params });

/** The value (m) and whether the span has it (v), over `spans AS s`. */
export function valueSql(v: StatsValue | null): { m: Piece; v: Piece } {
  if (v === null) return { m: piece('1'), v: piece('1') };
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

/**
 * An output aggregated over the spans where `v` holds, `m` the value (StatsOutput's contract);
 * the parameters of `v` come before those of `m`, as the text has them.
 */
export function aggregateSql(o: Pick<StatsOutput, 'aggregation' | 'percentile'>, m: Piece, v: Piece): Piece {
  const both = [...v.params, ...m.params];
  if (o.percentile !== null)
    return piece(`percentile(CASE WHEN ${v.sql} THEN ${m.sql} END, ${Number(o.percentile)})`, both);
  switch (o.aggregation) {
    case 'sum':
    case 'avg':
    case 'min':
    case 'max':
      return piece(`${o.aggregation}(CASE WHEN ${v.sql} THEN ${m.sql} END)`, both);
    case 'count':
      return piece(`sum(CASE WHEN ${v.sql} THEN 1 ELSE 0 END)`, [...v.params]);
    case 'count_distinct':
      return piece(`count(DISTINCT CASE WHEN ${v.sql} THEN ${m.sql} END)`, both);
    case 'count_true':
      return piece(`sum(CASE WHEN ${v.sql} AND ${m.sql} THEN 1 ELSE 0 END)`, both);
    case 'count_false':
      return piece(`sum(CASE WHEN ${v.sql} AND NOT ${m.sql} THEN 1 ELSE 0 END)`, both);
  }
  throw new Error(`unknown aggregation ${o.aggregation}`);
}
