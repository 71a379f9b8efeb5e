// /feedback/stats and /feedback/payload_schema on SQLite (storage/feedback/feedback-analytics.ts): payload
// values read with json_type / ->> (a value of another JSON type is no value), aggregated per
// bucket and over the window with the spans' aggregations (percentile(): exact, linear
// interpolation). Scans run on the read threads; values reach SQL only as parameters.
import {
  statsResult,
  type FeedbackAnalyticsStore,
  type FeedbackWindow,
  type PayloadValue,
} from '../../feedback/feedback-analytics.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { aggregateSql, piece, type Piece } from '../spans/span-aggregates.js';

/** A JSON path of object keys only (a digit-only key is a key here, as in ClickHouse's JSONExtract). */
const keysPath = (keys: readonly string[]) =>
  `$${keys.map((k) => `."${k.replace(/["\\]/g, (c) => `\\${c}`)}"`).join('')}`;

/** The rows of the window: project, created_at range, feedback_type and trigger_ref. */
function windowWhere(q: FeedbackWindow): Piece {
  const parts = ['project_id = ?', 'created_at >= ?', 'created_at < ?'];
  const params: unknown[] = [q.projectId, q.start, q.end];
  if (q.feedbackType !== null) {
    parts.push('feedback_type = ?');
    params.push(q.feedbackType);
  }
  if (q.triggerRef !== null) {
    parts.push(q.triggerRef.prefix ? 'substr(trigger_ref, 1, length(?)) = ?' : 'trigger_ref = ?');
    params.push(...(q.triggerRef.prefix ? [q.triggerRef.value, q.triggerRef.value] : [q.triggerRef.value]));
  }
  return piece(parts.join(' AND '), params);
}

/** The typed value at the path, NULL when absent or of another JSON type. */
function valueSql(v: PayloadValue): Piece {
  const p = keysPath(v.keys);
  switch (v.type) {
    case 'numeric':
      return piece("CASE WHEN json_type(payload, ?) IN ('integer', 'real') THEN payload ->> ? END", [p, p]);
    case 'boolean':
      return piece("CASE json_type(payload, ?) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END", [p]);
    case 'categorical':
      return piece("CASE WHEN json_type(payload, ?) = 'text' THEN payload ->> ? END", [p, p]);
  }
}

export function createSqliteFeedbackStats(
  reads: ReadThreads,
): Pick<FeedbackAnalyticsStore, 'stats' | 'payloadSamples'> {
  return {
    async stats(q) {
      const where = windowWhere(q);
      const values = q.values.map((v, i) => {
        const m = valueSql(v);
        return piece(`${m.sql} AS m${i}`, m.params);
      });
      const inner = piece(
        `SELECT created_at${values.map((v) => `, ${v.sql}`).join('')} FROM feedback WHERE ${where.sql}`,
        [...values.flatMap((v) => v.params), ...where.params],
      );
      const outputs = q.outputs.map((o, i) => {
        const a = aggregateSql(o, piece(`x.m${o.value}`), piece(`x.m${o.value} IS NOT NULL`));
        return piece(`, ${a.sql} AS o${i}`, a.params);
      });
      const select = `count(*) AS n${outputs.map((o) => o.sql).join('')}`;
      const bucketed = await reads.all<Record<string, unknown>>(
        `SELECT (x.created_at - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS b, ${select} FROM (${inner.sql}) AS x GROUP BY b`,
        [q.origin, q.width, ...outputs.flatMap((o) => o.params), ...inner.params],
      );
      const [whole] = await reads.all<Record<string, unknown>>(`SELECT ${select} FROM (${inner.sql}) AS x`, [
        ...outputs.flatMap((o) => o.params),
        ...inner.params,
      ]);
      return statsResult(q.outputs, bucketed, whole);
    },

    async payloadSamples(q) {
      const where = windowWhere(q);
      const rows = await reads.all<{ payload: string }>(
        `SELECT payload FROM (SELECT payload, created_at, row_number() OVER (PARTITION BY trigger_ref ORDER BY created_at DESC, rowid DESC) AS r FROM feedback WHERE ${where.sql}) WHERE r = 1 ORDER BY created_at DESC LIMIT ?`,
        [...where.params, q.limit],
      );
      return rows.map((r) => JSON.parse(r.payload) as unknown);
    },
  };
}
