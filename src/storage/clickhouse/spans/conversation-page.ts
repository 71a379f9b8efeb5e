// The conversations page on ClickHouse (storage/spans/conversation-page.ts): the page's conversations
// from a narrow grouping of the spans (conversation, latest activity), their count, then their
// figures from the general grouped read over those conversations' traces alone (their newest
// span versions, trace-reads.ts), not the whole table under FINAL three times (chdb, 1M spans:
// 3.4 s). A page holding the spans outside any conversation takes the general read. A filter
// beside the page (an agent) joins the narrow grouping, and its figures' read.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Expr } from '../../../query/plan.js';
import { among, conversationPage } from '../../spans/conversation-page.js';
import type { SpanGroupRow, SpanGroupsQuery } from '../../spans/span-store.js';
import { selectRows } from '../engine/client.js';
import { ChParams, printChExpr, type ChFieldPrinter } from '../engine/dialect.js';
import { latestOfTraces } from './trace-reads.js';

type Groups = (
  q: SpanGroupsQuery,
  source?: { readonly sql: string; readonly values: Record<string, unknown> },
) => Promise<{ rows: SpanGroupRow[]; total: number }>;

export function createClickHouseConversationPage(
  client: ClickHouseClient,
  table: string,
  groups: Groups,
  printField: ChFieldPrinter,
) {
  return async (q: SpanGroupsQuery): Promise<{ rows: SpanGroupRow[]; total: number } | null> => {
    const parts = conversationPage(q);
    if (parts === null) return null;
    const { named, filter } = parts;
    const params = new ChParams();
    const where = [`project_id = ${params.add(q.projectId, 'String')}`];
    if (q.startedAfter !== null) where.push(`started_at >= ${params.add(q.startedAfter, 'Int64')}`);
    if (q.startedBefore !== null) where.push(`started_at < ${params.add(q.startedBefore, 'Int64')}`);
    if (named) where.push('conversation_id IS NOT NULL');
    if (filter !== null) where.push(printChExpr(filter, printField, params));
    const from = `FROM ${table} AS s FINAL WHERE ${where.join(' AND ')}`;
    // The general read's order: latest activity, then the key.
    const [page, [count]] = await Promise.all([
      selectRows<{ c: string | null }>(
        client,
        `SELECT conversation_id AS c, max(coalesce(ended_at, started_at)) AS last ${from}
         GROUP BY c ORDER BY last DESC, c ASC LIMIT ${params.add(q.limit, 'Int64')} OFFSET ${params.add(q.offset, 'Int64')}`,
        params.values,
      ),
      selectRows<{ n: string | number }>(
        client,
        `SELECT uniqExact(conversation_id) + if(countIf(conversation_id IS NULL) > 0, 1, 0) AS n ${from}`,
        params.values,
      ),
    ]);
    const total = Number(count?.n ?? 0);
    const ids = page.map((r) => r.c);
    if (ids.length === 0) return { rows: [], total };
    if (ids.includes(null)) return null;
    const traces = `SELECT trace_id FROM ${table} WHERE project_id = {p:String} AND conversation_id IN (SELECT arrayJoin({ids:Array(String)}))`;
    const { rows } = await groups(
      {
        ...q,
        where: named ? ({ kind: 'and', items: [q.where!, among(ids)] } satisfies Expr) : among(ids),
        offset: 0,
        limit: ids.length,
      },
      { sql: `(${latestOfTraces(table, '*', traces)}) AS s`, values: { p: q.projectId, ids } },
    );
    return { rows, total };
  };
}
