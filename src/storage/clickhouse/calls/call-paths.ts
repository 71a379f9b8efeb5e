// The SQL behind CallStore.fieldPaths on ClickHouse: the keys of the matching calls' inputs and
// output (two levels) and attributes (one), read from the JSON text in the one scan of the calls.
import type { CallsQuery } from '../../../query/calls-query.js';
import type { Micros } from '../../../time.js';
import { liveCallsFrom, newStatement, type LeafReads } from './call-select.js';

/** A key that names a column path: not empty, no dot, not Weave's own. */
const named = (k: string) =>
  `(${k} != '' AND position(${k}, '.') = 0 AND ${k} NOT IN ('_type', '_class_name', '_bases'))`;

/** `<column>.<k>` for each key of the JSON object text (none for other values). */
const top = (column: string, json: string) =>
  `arrayMap(k -> concat('${column}.', k), arrayFilter(k -> ${named('k')}, JSONExtractKeys(${json})))`;

/** As top, and `<column>.<k>.<k2>` for each key of an object value. */
const deep = (column: string, json: string) =>
  `arrayFlatten(arrayMap(kv -> arrayConcat([concat('${column}.', kv.1)], arrayMap(k2 -> concat('${column}.', kv.1, '.', k2), arrayFilter(k2 -> ${named('k2')}, if(JSONType(kv.2) = 'Object', JSONExtractKeys(kv.2), [])))), arrayFilter(kv -> ${named('kv.1')}, JSONExtractKeysAndValuesRaw(${json}))))`;

/** Distinct paths in byte (code-point) order, at most `limit`. */
export function buildFieldPaths(
  database: string,
  q: CallsQuery,
  limit: number,
  now: Micros,
  leaves: LeafReads,
): { sql: string; params: Record<string, unknown> } {
  const s = newStatement(database, q.projectId, leaves);
  const paths = `arrayConcat(${deep('inputs', 'calls.inputs')}, ${deep('output', "coalesce(calls.output, '')")}, ${top('attributes', 'calls.attributes')})`;
  const from = liveCallsFrom(database, s, q.where, now);
  return {
    sql: `SELECT DISTINCT p FROM (SELECT arrayJoin(${paths}) AS p ${from}) ORDER BY p LIMIT ${s.params.add(limit, 'Int64')}`,
    params: s.params.values,
  };
}
