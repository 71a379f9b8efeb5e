// The grouped options of the agent span reads on SQLite (storage/spans/span-filters.ts): the signal
// restriction (a semi-join on the feedback table), a measure's aggregate, HAVING bounds and the
// chain of stats group filters. Values reach SQL only as parameters, in the order the text
// holds them; the rating operators come from an allow-list.
import { AGENT_SPAN_FEEDBACK_TYPES } from '../../../api/agent-feedback.js';
import type { SpanGroupBound, SpanGroupFilter, SpanSignalFilter } from '../../spans/span-filters.js';
import type { SpanMeasure } from '../../spans/span-measures.js';
import { printSqliteExpr, sqliteJsonPath, type FieldPrinter } from '../engine/dialect.js';
import { aggregateSql, piece, valueSql, type Piece } from './span-aggregates.js';

const OPS = { gte: '>=', gt: '>', lte: '<=', lt: '<', eq: '=' } as const;

/** `s.conversation_id IN (conversations carrying the signals)`, null for an empty filter. */
export function signalSql(projectId: string, f: SpanSignalFilter | null | undefined): Piece | null {
  if (f === null || f === undefined || (f.tags.length === 0 && f.ratings.length === 0)) return null;
  const having: Piece[] = [];
  if (f.tags.length > 0)
    having.push(
      piece(
        'sum(EXISTS (SELECT 1 FROM json_each(f.scorer_tags) AS t WHERE t.value IN (SELECT value FROM json_each(?)))) > 0',
        [JSON.stringify(f.tags)],
      ),
    );
  for (const r of f.ratings) {
    const path = sqliteJsonPath([r.scorerKey]);
    having.push(
      piece(
        `sum(json_type(f.scorer_ratings, ?) IN ('integer', 'real') AND (f.scorer_ratings ->> ?) ${OPS[r.op]} ?) > 0`,
        [path, path, r.value],
      ),
    );
  }
  return piece(
    `s.conversation_id IN (SELECT f.span_conversation_id FROM feedback AS f WHERE f.project_id = ? AND f.feedback_type IN (SELECT value FROM json_each(?)) AND f.span_conversation_id <> '' GROUP BY f.span_conversation_id HAVING ${having.map((h) => h.sql).join(' AND ')})`,
    [projectId, JSON.stringify(AGENT_SPAN_FEEDBACK_TYPES), ...having.flatMap((h) => h.params)],
  );
}

/** A measure's aggregate over the group's spans (`spans AS s`) its filter keeps. */
export function measureSql(me: SpanMeasure, printField: FieldPrinter): Piece {
  const { m, v } = valueSql(me.output.value);
  const f = me.filter === null ? null : printSqliteExpr(me.filter, printField);
  const kept = f === null ? v : piece(`(${v.sql}) AND (${f.sql})`, [...v.params, ...f.params]);
  return aggregateSql(me.output, m, kept);
}

/** The bounds as HAVING conditions (inclusive), null without any. */
export function havingSql(bounds: readonly SpanGroupBound[] | undefined, printField: FieldPrinter): Piece | null {
  const parts: Piece[] = [];
  for (const b of bounds ?? []) {
    const agg = measureSql(b.measure, printField);
    if (b.min !== null) parts.push(piece(`(${agg.sql}) >= ?`, [...agg.params, b.min]));
    if (b.max !== null) parts.push(piece(`(${agg.sql}) <= ?`, [...agg.params, b.max]));
  }
  return parts.length === 0
    ? null
    : piece(
        parts.map((p) => p.sql).join(' AND '),
        parts.flatMap((p) => p.params),
      );
}

/**
 * The spans `where` keeps, narrowed by each group filter in turn, as a WITH clause ending in
 * the table `f<n>` (read as `f<n> AS s`). The steps are NOT MATERIALIZED: SQLite folds them into
 * the reads instead of copying whole span rows. A NULL key is a group (IS, not =).
 */
export function groupFilterChain(
  where: Piece,
  filters: readonly SpanGroupFilter[],
  printField: FieldPrinter,
): { readonly with: Piece; readonly table: string } {
  const steps: Piece[] = [piece(`f0 AS NOT MATERIALIZED (SELECT * FROM spans AS s WHERE ${where.sql})`, where.params)];
  filters.forEach((gf, i) => {
    const keys = gf.keys.map((k) => printField(k));
    const names = keys.map((_, j) => `k${j}`);
    const having = havingSql(gf.bounds, printField) ?? piece('1');
    steps.push(
      piece(
        `q${i + 1} AS (SELECT ${keys.map((k, j) => `${k.sql} AS ${names[j]}`).join(', ')} FROM f${i} AS s GROUP BY ${names.join(', ')} HAVING ${having.sql})`,
        [...keys.flatMap((k) => k.params), ...having.params],
      ),
      piece(
        `f${i + 1} AS NOT MATERIALIZED (SELECT s.* FROM f${i} AS s WHERE EXISTS (SELECT 1 FROM q${i + 1} AS q WHERE ${keys.map((k, j) => `q.${names[j]} IS ${k.sql}`).join(' AND ')}))`,
        keys.flatMap((k) => k.params),
      ),
    );
  });
  return {
    with: piece(
      `WITH ${steps.map((s) => s.sql).join(', ')}`,
      steps.flatMap((s) => s.params),
    ),
    table: `f${filters.length}`,
  };
}
