// The grouped options of the agent span reads on ClickHouse, as sqlite/spans/span-filters.ts:
// the signal restriction (a semi-join on the feedback table, whose JSON columns hold text), a
// measure's aggregate, HAVING bounds and the chain of stats group filters. Values travel as
// typed parameters; the rating operators come from an allow-list.
import { AGENT_SPAN_FEEDBACK_TYPES } from '../../../api/agent-feedback.js';
import type { SpanGroupBound, SpanGroupFilter, SpanSignalFilter } from '../../spans/span-filters.js';
import type { SpanMeasure } from '../../spans/span-measures.js';
import { printChExpr, type ChFieldPrinter, type ChParams } from '../engine/dialect.js';
import { aggregateSql, valueSql } from './span-aggregates.js';

const OPS = { gte: '>=', gt: '>', lte: '<=', lt: '<', eq: '=' } as const;

/** `s.conversation_id IN (conversations carrying the signals)`, null for an empty filter. */
export function signalSql(
  feedback: string,
  projectId: string,
  f: SpanSignalFilter | null | undefined,
  params: ChParams,
): string | null {
  if (f === null || f === undefined || (f.tags.length === 0 && f.ratings.length === 0)) return null;
  const having: string[] = [];
  if (f.tags.length > 0)
    having.push(
      `sum(hasAny(JSONExtract(f.scorer_tags, 'Array(String)'), ${params.add([...f.tags], 'Array(String)')})) > 0`,
    );
  for (const r of f.ratings) {
    const key = params.add(r.scorerKey, 'String');
    having.push(
      `sum(JSONType(f.scorer_ratings, ${key}) IN ('Int64', 'UInt64', 'Double') AND JSONExtractFloat(f.scorer_ratings, ${key}) ${OPS[r.op]} ${params.add(r.value, 'Float64')}) > 0`,
    );
  }
  return `s.conversation_id IN (SELECT f.span_conversation_id FROM ${feedback} AS f WHERE f.project_id = ${params.add(projectId, 'String')} AND f.feedback_type IN ${params.add([...AGENT_SPAN_FEEDBACK_TYPES], 'Array(String)')} AND f.span_conversation_id != '' GROUP BY f.span_conversation_id HAVING ${having.join(' AND ')})`;
}

/** A measure's aggregate over the group's spans (`s`) its filter keeps. */
export function measureSql(me: SpanMeasure, printField: ChFieldPrinter, params: ChParams): string {
  const { m, v } = valueSql(me.output.value, params);
  const kept = me.filter === null ? v : `(${v}) AND (${printChExpr(me.filter, printField, params)})`;
  return aggregateSql(me.output, m, kept);
}

/** The bounds as HAVING conditions (inclusive), null without any. */
export function havingSql(
  bounds: readonly SpanGroupBound[] | undefined,
  printField: ChFieldPrinter,
  params: ChParams,
): string | null {
  const parts: string[] = [];
  for (const b of bounds ?? []) {
    const agg = measureSql(b.measure, printField, params);
    if (b.min !== null) parts.push(`(${agg}) >= ${params.add(b.min, 'Float64')}`);
    if (b.max !== null) parts.push(`(${agg}) <= ${params.add(b.max, 'Float64')}`);
  }
  return parts.length === 0 ? null : parts.join(' AND ');
}

/**
 * The spans `where` keeps (newest rows: FINAL), narrowed by each group filter in turn, as a
 * WITH clause ending in the table `f<n>`. A NULL key is a group (the statement sets
 * transform_null_in = 1, so IN matches NULL keys).
 */
export function groupFilterChain(
  table: string,
  where: string,
  filters: readonly SpanGroupFilter[],
  printField: ChFieldPrinter,
  params: ChParams,
): { readonly with: string; readonly table: string } {
  const steps = [`f0 AS (SELECT * FROM ${table} AS s FINAL WHERE ${where})`];
  filters.forEach((gf, i) => {
    const keys = gf.keys.map((k) => printField(k, params).sql);
    const names = keys.map((_, j) => `k${j}`);
    const having = havingSql(gf.bounds, printField, params) ?? '1';
    steps.push(
      `q${i + 1} AS (SELECT ${keys.map((k, j) => `${k} AS ${names[j]}`).join(', ')} FROM f${i} AS s GROUP BY ${names.join(', ')} HAVING ${having})`,
      `f${i + 1} AS (SELECT * FROM f${i} AS s WHERE (${keys.join(', ')}) IN (SELECT ${names.join(', ')} FROM q${i + 1}))`,
    );
  });
  return { with: `WITH ${steps.join(', ')}`, table: `f${filters.length}` };
}
