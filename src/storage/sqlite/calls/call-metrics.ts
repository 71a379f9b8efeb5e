// The SQL behind the monitor's time series (CallStore.startedRange and CallStore.metricRows):
// the live calls of the same `where` as the calls queries (fromLiveCalls: values as
// parameters only, keyed lookups where the where pins ids), reading a few columns, not rows.
import type { CallsQuery } from '../../../query/calls-query.js';
import type { Micros } from '../../../time.js';
import { fromLiveCalls } from './call-select.js';
import { param, sql, type SqlFragment } from '../engine/dialect.js';

/** An optional bound on started_at: from inclusive, to exclusive. */
function startedWithin(from: Micros | null, to: Micros | null): SqlFragment {
  let out: SqlFragment = { sql: '', params: [] };
  if (from !== null) out = sql`${out} AND calls.started_at >= ${param(from)}`;
  if (to !== null) out = sql`${out} AND calls.started_at < ${param(to)}`;
  return out;
}

/**
 * One row {count, first, last}: how many calls match within the bounds and the started_at
 * of the first and the last (NULL when none). Without a filter, calls_started covers it.
 */
export function buildStartedRange(q: CallsQuery, from: Micros | null, to: Micros | null, now: Micros): SqlFragment {
  return sql`SELECT COUNT(*) AS count, MIN(calls.started_at) AS first, MAX(calls.started_at) AS last ${fromLiveCalls(q, now)}${startedWithin(from, to)}`;
}

/**
 * The matching calls started in [from, to), in no particular order, as raw rows
 * [started_at, ended_at, error, usage]: error is 1 when the call's status is 'error'
 * (a non-empty exception, as summary.weave.status derives it), usage the JSON text of
 * summary.usage (NULL when absent). The instr() test skips decoding the JSON of summaries
 * that cannot hold a usage key, which most calls' summaries are.
 */
export function buildMetricRows(q: CallsQuery, from: Micros, to: Micros, now: Micros): SqlFragment {
  const usage = `CASE WHEN instr(calls.summary, '"usage"') > 0 THEN calls.summary -> '$.usage' END`;
  return sql`SELECT calls.started_at, calls.ended_at, COALESCE(calls.exception, '') <> '' AS error, ${{ sql: usage, params: [] }} AS usage ${fromLiveCalls(q, now)}${startedWithin(from, to)}`;
}
