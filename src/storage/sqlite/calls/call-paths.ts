// The SQL behind CallStore.fieldPaths on SQLite: the keys of the matching calls' inputs and
// output (two levels) and attributes (one), read by json_each in one scan of the calls. The
// three columns are read as one object so that each row is scanned once (two scans per column
// cost 1.9x on 105,223 calls of ~2 KB: the JSON parse is the cost); each (key, child key) pair
// is kept once, then a key and its child each become a path.
import type { CallsQuery } from '../../../query/calls-query.js';
import type { Micros } from '../../../time.js';
import { fromLiveCalls } from './call-select.js';
import { param, sql, type SqlFragment } from '../engine/dialect.js';

/** A key that names a column path: text (not an array index), not empty, no dot, not Weave's own. */
const named = (k: string) =>
  `typeof(${k}) = 'text' AND ${k} <> '' AND instr(${k}, '.') = 0 AND ${k} NOT IN ('_type', '_class_name', '_bases')`;

const raw = (text: string): SqlFragment => ({ sql: text, params: [] });

/** Distinct paths in code-point order (SQLite's BINARY collation), at most `limit`. */
export function buildFieldPaths(q: CallsQuery, limit: number, now: Micros): SqlFragment {
  const m = sql`(SELECT json_object('inputs', json(calls.inputs), 'output', json(calls.output), 'attributes', json(calls.attributes)) AS j ${fromLiveCalls(q, now)}) AS m`;
  // c: the column; a: its keys; b: the keys of an object value (inputs and output only).
  const pairs = sql`SELECT DISTINCT c.key || '.' || a.key AS p1, c.key || '.' || a.key || '.' || b.key AS p2
    FROM ${m}, json_each(m.j) AS c, json_each(CASE WHEN c.type = 'object' THEN c.value END) AS a
    LEFT JOIN json_each(CASE WHEN a.type = 'object' AND c.key <> 'attributes' THEN a.value END) AS b ON ${raw(named('b.key'))}
    WHERE ${raw(named('a.key'))}`;
  return sql`WITH pairs AS MATERIALIZED (${pairs}) SELECT p FROM (SELECT p1 AS p FROM pairs UNION SELECT p2 FROM pairs WHERE p2 IS NOT NULL) ORDER BY p LIMIT ${param(limit)}`;
}
