// /feedback/aggregate on ClickHouse (storage/feedback/feedback-analytics.ts), as Weave's
// feedback_agg_query_builder: sumMap over the scorer tags and ratings (stored here as JSON text,
// so read with JSONExtract first), a ref's object id cut with splitByChar. sumMap leaves out a
// key whose sum is 0; the service puts it back from the counts. Values travel as parameters.
import type { ClickHouseClient } from '@clickhouse/client';
import {
  dimensionColumn,
  type FeedbackAggregateCell,
  type FeedbackAggregateQuery,
  type ObjectIdMatch,
} from '../../feedback/feedback-analytics.js';
import { selectRows } from '../engine/client.js';
import { ChParams } from '../engine/dialect.js';

type DbRow = Record<string, unknown>;

/** A ref's object id: its last path segment, before any ':digest'. */
const objectId = (column: string) => `splitByChar(':', splitByChar('/', ifNull(${column}, ''))[-1])[1]`;

function idMatch(column: string, ids: readonly ObjectIdMatch[], params: ChParams): string {
  const ors = ids.map((id) =>
    id.prefix
      ? `startsWith(${column}, ${params.add(id.value, 'String')})`
      : `${column} = ${params.add(id.value, 'String')}`,
  );
  return `(${ors.join(' OR ')})`;
}

function filters(q: FeedbackAggregateQuery, params: ChParams): string[] {
  const out: string[] = [];
  if (q.feedbackTypePrefixes.length > 0)
    out.push(
      `(${q.feedbackTypePrefixes.map((p) => `startsWith(feedback_type, ${params.add(p, 'String')})`).join(' OR ')})`,
    );
  if (q.monitorIds.length > 0) out.push(idMatch('monitor_id', q.monitorIds, params));
  if (q.scorerIds.length > 0) out.push(idMatch('scorer_id', q.scorerIds, params));
  if (q.spanAgentNames.length > 0) out.push(`has(${params.add(q.spanAgentNames, 'Array(String)')}, span_agent_name)`);
  if (q.spanTypes.length > 0) out.push(`has(${params.add(q.spanTypes, 'Array(String)')}, span_type)`);
  if (q.tags.length > 0) out.push(`hasAny(tags, ${params.add(q.tags, 'Array(String)')})`);
  if (q.ratingMin !== null || q.ratingMax !== null) {
    const key = params.add('_rating_', 'String');
    out.push(`mapContains(ratings, ${key})`);
    if (q.ratingMin !== null) out.push(`ratings[${key}] >= ${params.add(q.ratingMin, 'Float64')}`);
    if (q.ratingMax !== null) out.push(`ratings[${key}] <= ${params.add(q.ratingMax, 'Float64')}`);
  }
  return out;
}

/** A map column of JSON output ({key: number or 64-bit integer text}) as numbers. */
const numbers = (m: unknown): Record<string, number> =>
  Object.fromEntries(Object.entries((m ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Number(v)]));

export function createClickHouseFeedbackAggregate(client: ClickHouseClient, table: string) {
  return async (q: FeedbackAggregateQuery): Promise<FeedbackAggregateCell[]> => {
    const params = new ChParams();
    const rows = `SELECT created_at, feedback_type, span_agent_name, span_agent_version, span_status_code,
        JSONExtract(scorer_tags, 'Array(String)') AS tags, JSONExtract(scorer_ratings, 'Map(String, Float64)') AS ratings,
        ${objectId('trigger_ref')} AS monitor_id, ${objectId('runnable_ref')} AS scorer_id,
        splitByChar('/', weave_ref)[-2] AS span_type
      FROM ${table}
      WHERE project_id = ${params.add(q.projectId, 'String')} AND created_at >= ${params.add(q.after, 'Int64')} AND created_at < ${params.add(q.before, 'Int64')}`;
    const where = filters(q, params);
    const keys = [
      ...(q.width === null
        ? []
        : [`intDiv(created_at, ${params.add(q.width, 'Int64')}) * ${params.add(q.width, 'Int64')} AS b`]),
      ...q.groupBy.map((d, i) => `${dimensionColumn(d)} AS g${i}`),
    ];
    const names = [...(q.width === null ? [] : ['b']), ...q.groupBy.map((_, i) => `g${i}`)];
    const sql = `SELECT ${[
      ...keys,
      'count() AS total',
      'countIf(notEmpty(tags) OR notEmpty(ratings)) AS scored',
      'sumMap(tags, arrayMap(x -> toUInt64(1), tags)) AS tc',
      'sumMap(mapKeys(ratings), arrayMap(x -> toUInt64(1), mapValues(ratings))) AS rc',
      'sumMap(mapKeys(ratings), mapValues(ratings)) AS rs',
      'mapFromArrays(tc.1, tc.2) AS tag_counts',
      'mapFromArrays(rc.1, rc.2) AS rating_counts',
      'mapFromArrays(rs.1, rs.2) AS rating_sums',
    ].join(', ')} FROM (${rows})${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}${
      names.length === 0 ? '' : ` GROUP BY ${names.join(', ')}`
    }`;
    const result = await selectRows<DbRow>(client, sql, params.values);
    return result
      .filter((r) => Number(r.total) > 0)
      .map((r) => ({
        bucket: q.width === null ? null : Number(r.b),
        group: q.groupBy.map((_, i) => String(r[`g${i}`])),
        total: Number(r.total),
        scored: Number(r.scored),
        tagCounts: numbers(r.tag_counts),
        ratingCounts: numbers(r.rating_counts),
        ratingSums: numbers(r.rating_sums),
      }));
  };
}
