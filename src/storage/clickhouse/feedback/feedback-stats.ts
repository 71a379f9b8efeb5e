// /feedback/stats and /feedback/payload_schema on ClickHouse (storage/feedback/feedback-analytics.ts), as
// Weave's feedback_stats_query_builder reads payloads: JSONExtractRaw at the path's keys
// (toFloat64OrNull for numbers, the raw tokens true / false for booleans), JSONExtractString
// where JSONType says String. Percentiles are exact (quantileExactInclusive, as SQLite's
// percentile()). Values travel as bound parameters.
import type { ClickHouseClient } from '@clickhouse/client';
import {
  statsResult,
  type FeedbackAnalyticsStore,
  type FeedbackWindow,
  type PayloadValue,
} from '../../feedback/feedback-analytics.js';
import { selectRows } from '../engine/client.js';
import { ChParams } from '../engine/dialect.js';
import { aggregateSql } from '../spans/span-aggregates.js';

/** The rows of the window: project, created_at range, feedback_type and trigger_ref. */
function windowWhere(q: FeedbackWindow, params: ChParams): string {
  const parts = [
    `project_id = ${params.add(q.projectId, 'String')}`,
    `created_at >= ${params.add(q.start, 'Int64')}`,
    `created_at < ${params.add(q.end, 'Int64')}`,
  ];
  if (q.feedbackType !== null) parts.push(`feedback_type = ${params.add(q.feedbackType, 'String')}`);
  if (q.triggerRef !== null) {
    const ref = params.add(q.triggerRef.value, 'String');
    parts.push(q.triggerRef.prefix ? `startsWith(ifNull(trigger_ref, ''), ${ref})` : `trigger_ref = ${ref}`);
  }
  return parts.join(' AND ');
}

/** The typed value at the path, NULL when absent or of another JSON type. */
function valueSql(v: PayloadValue, params: ChParams): string {
  const keys = v.keys.map((k) => params.add(k, 'String')).join(', ');
  switch (v.type) {
    case 'numeric':
      return `toFloat64OrNull(JSONExtractRaw(payload, ${keys}))`;
    case 'boolean':
      return `multiIf(JSONExtractRaw(payload, ${keys}) = 'true', 1, JSONExtractRaw(payload, ${keys}) = 'false', 0, NULL)`;
    case 'categorical':
      return `if(JSONType(payload, ${keys}) = 'String', JSONExtractString(payload, ${keys}), NULL)`;
  }
}

export function createClickHouseFeedbackStats(
  client: ClickHouseClient,
  table: string,
): Pick<FeedbackAnalyticsStore, 'stats' | 'payloadSamples'> {
  return {
    async stats(q) {
      const params = new ChParams();
      const values = q.values.map((v, i) => `, ${valueSql(v, params)} AS m${i}`).join('');
      const inner = `SELECT created_at${values} FROM ${table} WHERE ${windowWhere(q, params)}`;
      const select = [
        'count() AS n',
        ...q.outputs.map((o, i) => `${aggregateSql(o, `m${o.value}`, `isNotNull(m${o.value})`)} AS o${i}`),
      ].join(', ');
      const wholeParams = { ...params.values };
      const bucket = `intDiv(created_at - ${params.add(q.origin, 'Int64')}, ${params.add(q.width, 'Int64')})`;
      const [bucketed, [whole]] = await Promise.all([
        selectRows<Record<string, unknown>>(
          client,
          `SELECT ${bucket} AS b, ${select} FROM (${inner}) GROUP BY b`,
          params.values,
        ),
        selectRows<Record<string, unknown>>(client, `SELECT ${select} FROM (${inner})`, wholeParams),
      ]);
      return statsResult(q.outputs, bucketed, whole);
    },

    async payloadSamples(q) {
      const params = new ChParams();
      const rows = await selectRows<{ p: string }>(
        client,
        `SELECT argMax(payload, (created_at, seq)) AS p, max(created_at) AS t FROM ${table} WHERE ${windowWhere(q, params)} GROUP BY trigger_ref ORDER BY t DESC LIMIT ${params.add(q.limit, 'Int64')}`,
        params.values,
      );
      return rows.map((r) => JSON.parse(r.p) as unknown);
    },
  };
}
