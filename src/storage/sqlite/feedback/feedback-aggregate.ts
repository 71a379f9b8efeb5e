// /feedback/aggregate on SQLite (storage/feedback/feedback-analytics.ts): one statement over the rows that
// pass the filters (x) answers three kinds of cells per (bucket, group): totals (kind 0), tag
// counts (kind 1, from json_each of scorer_tags) and rating counts and sums (kind 2, from
// json_each of scorer_ratings). A ref's object id and a weave_ref's span type are cut out of the
// text as ClickHouse's splitByChar does. Values reach SQL only as parameters.
import {
  dimensionColumn,
  type FeedbackAggregateCell,
  type FeedbackAggregateQuery,
  type ObjectIdMatch,
} from '../../feedback/feedback-analytics.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { piece, type Piece } from '../spans/span-aggregates.js';

type DbRow = Record<string, number | string | null>;

/** What follows the last '/' of text `x` (all of it without one): rtrim strips every trailing character but '/'. */
const afterLastSlash = (x: string) => `substr(${x}, length(rtrim(${x}, replace(${x}, '/', ''))) + 1)`;
/** What precedes the last '/' of `x` ('' without one). */
const beforeLastSlash = (x: string) => `substr(${x}, 1, max(length(rtrim(${x}, replace(${x}, '/', ''))) - 1, 0))`;
/** What precedes the first ':' of `x` (all of it without one). */
const beforeColon = (x: string) =>
  `CASE WHEN instr(${x}, ':') > 0 THEN substr(${x}, 1, instr(${x}, ':') - 1) ELSE ${x} END`;

const RATING_PATH = '$."_rating_"';

const anyOf = (clauses: readonly Piece[]): Piece =>
  piece(
    `(${clauses.map((c) => c.sql).join(' OR ')})`,
    clauses.flatMap((c) => c.params),
  );
const inList = (column: string, values: readonly string[]): Piece =>
  piece(`${column} IN (${values.map(() => '?').join(', ')})`, [...values]);
const startsWith = (column: string, prefix: string): Piece =>
  piece(`substr(${column}, 1, length(?)) = ?`, [prefix, prefix]);
const idMatch = (column: string, ids: readonly ObjectIdMatch[]): Piece =>
  anyOf(ids.map((id) => (id.prefix ? startsWith(column, id.value) : piece(`${column} = ?`, [id.value]))));

/** The rows of the project and range with the derived ids (layers: raw refs, last segments, ids). */
function filteredRows(q: FeedbackAggregateQuery): Piece {
  const base =
    "SELECT created_at, feedback_type, scorer_tags, scorer_ratings, span_agent_name, span_agent_version, span_status_code, ifnull(trigger_ref, '') AS tr, ifnull(runnable_ref, '') AS rr, weave_ref AS wr FROM feedback WHERE project_id = ? AND created_at >= ? AND created_at < ?";
  const segments = `SELECT *, ${afterLastSlash('tr')} AS tr_seg, ${afterLastSlash('rr')} AS rr_seg, ${beforeLastSlash('wr')} AS wr_head FROM (${base})`;
  const ids = `SELECT *, ${beforeColon('tr_seg')} AS monitor_id, ${beforeColon('rr_seg')} AS scorer_id, ${afterLastSlash('wr_head')} AS span_type FROM (${segments})`;
  const filters: Piece[] = [];
  if (q.feedbackTypePrefixes.length > 0)
    filters.push(anyOf(q.feedbackTypePrefixes.map((p) => startsWith('feedback_type', p))));
  if (q.monitorIds.length > 0) filters.push(idMatch('monitor_id', q.monitorIds));
  if (q.scorerIds.length > 0) filters.push(idMatch('scorer_id', q.scorerIds));
  if (q.spanAgentNames.length > 0) filters.push(inList('span_agent_name', q.spanAgentNames));
  if (q.spanTypes.length > 0) filters.push(inList('span_type', q.spanTypes));
  if (q.tags.length > 0)
    filters.push(
      piece(`EXISTS (SELECT 1 FROM json_each(scorer_tags) AS t WHERE ${inList('t.value', q.tags).sql})`, [...q.tags]),
    );
  if (q.ratingMin !== null || q.ratingMax !== null) {
    filters.push(piece("json_type(scorer_ratings, ?) IN ('integer', 'real')", [RATING_PATH]));
    if (q.ratingMin !== null) filters.push(piece('(scorer_ratings ->> ?) >= ?', [RATING_PATH, q.ratingMin]));
    if (q.ratingMax !== null) filters.push(piece('(scorer_ratings ->> ?) <= ?', [RATING_PATH, q.ratingMax]));
  }
  const where = filters.length === 0 ? '' : ` WHERE ${filters.map((f) => f.sql).join(' AND ')}`;
  return piece(`SELECT * FROM (${ids})${where}`, [q.projectId, q.after, q.before, ...filters.flatMap((f) => f.params)]);
}

export function createSqliteFeedbackAggregate(reads: ReadThreads) {
  return async (q: FeedbackAggregateQuery): Promise<FeedbackAggregateCell[]> => {
    const rows = filteredRows(q);
    const bucket = q.width === null ? 'NULL' : '(created_at / CAST(? AS INTEGER)) * CAST(? AS INTEGER)';
    const dims = q.groupBy.map((d, i) => `${dimensionColumn(d)} AS g${i}`);
    const x = `SELECT ${[`${bucket} AS b`, ...dims, 'scorer_tags', 'scorer_ratings'].join(', ')} FROM (${rows.sql})`;
    const keys = ['b', ...q.groupBy.map((_, i) => `g${i}`)].join(', ');
    const scored = '(json_array_length(scorer_tags) > 0 OR EXISTS (SELECT 1 FROM json_each(scorer_ratings)))';
    const sql = `WITH x AS (${x})
      SELECT 0 AS kind, ${keys}, NULL AS k, count(*) AS n, sum(${scored}) AS s FROM x GROUP BY ${keys}
      UNION ALL SELECT 1, ${keys}, j.value, count(*), NULL FROM x, json_each(x.scorer_tags) AS j GROUP BY ${keys}, j.value
      UNION ALL SELECT 2, ${keys}, j.key, count(*), sum(j.value) FROM x, json_each(x.scorer_ratings) AS j GROUP BY ${keys}, j.key`;
    const params = [...(q.width === null ? [] : [q.width, q.width]), ...rows.params];
    const cells = new Map<string, FeedbackAggregateCell>();
    const cellOf = (r: DbRow) => {
      const group = q.groupBy.map((_, i) => String(r[`g${i}`]));
      const bucketAt = r.b === null ? null : Number(r.b);
      const id = JSON.stringify([bucketAt, group]);
      let cell = cells.get(id);
      if (cell === undefined) {
        cell = { bucket: bucketAt, group, total: 0, scored: 0, tagCounts: {}, ratingCounts: {}, ratingSums: {} };
        cells.set(id, cell);
      }
      return cell;
    };
    for (const r of await reads.all<DbRow>(sql, params)) {
      const cell = cellOf(r);
      const k = String(r.k);
      if (r.kind === 0) Object.assign(cell, { total: Number(r.n), scored: Number(r.s) });
      else if (r.kind === 1) cell.tagCounts[k] = Number(r.n);
      else {
        cell.ratingCounts[k] = Number(r.n);
        cell.ratingSums[k] = Number(r.s);
      }
    }
    return [...cells.values()];
  };
}
