// Grouped reads of agent spans on ClickHouse: as sqlite/spans/span-groups.ts, over the newest
// row of each span (FINAL). Values travel as typed parameters; keys print through the span
// field printer (an allow-list); sort names come from the keys' aliases and SPAN_GROUP_SUMS.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Expr } from '../../../query/plan.js';
import type { SpanGroupRow, SpanGroupsQuery } from '../../spans/span-store.js';
import { SPAN_GROUP_LISTS, SPAN_GROUP_SUMS } from '../../spans/span-store.js';
import { TOKEN_COLUMNS } from '../../spans/span-rollups.js';
import { selectRows } from '../engine/client.js';
import { ChParams, printChExpr, type ChFieldPrinter } from '../engine/dialect.js';
import { havingSql, measureSql, signalSql } from './span-filters.js';
import { latestOfTraces, TRACES } from './trace-reads.js';

const counted = (c: string) => `sumIf(coalesce(s.${c}, 0), s.tokens_counted = 1)`;
const BUNDLE = [
  'count() AS span_count',
  "countIf(s.operation_name = 'invoke_agent') AS invocation_count",
  'uniqExact(s.conversation_id) AS conversation_count',
  'uniqExact(s.trace_id) AS turn_count',
  `${counted('input_tokens')} AS total_input_tokens`,
  `${counted('cache_creation_input_tokens')} AS total_cache_creation_input_tokens`,
  `${counted('cache_read_input_tokens')} AS total_cache_read_input_tokens`,
  `${counted('output_tokens')} AS total_output_tokens`,
  `${counted('reasoning_tokens')} AS total_reasoning_tokens`,
  'sum(if(s.ended_at IS NULL, 0, intDiv(s.ended_at - s.started_at, 1000))) AS total_duration_ms',
  "countIf(s.status_code = 'ERROR') AS error_count",
  'min(s.started_at) AS first_seen',
  'max(coalesce(s.ended_at, s.started_at)) AS last_seen',
  'groupUniqArray(s.agent_name) AS agent_names',
  'groupUniqArray(s.agent_version) AS agent_versions',
  'groupUniqArray(s.provider_name) AS provider_names',
  'groupUniqArray(s.request_model) AS request_models',
  'groupUniqArray(s.conversation_name) AS conversation_names',
].join(', ');

/**
 * The conversations a filter keeps spans of, when it names them (`conversation_id` IN literals,
 * or = one, alone or within an AND: the search's conversations, the Agents view's page once
 * picked); else null.
 */
function namedConversations(where: Expr | null): string[] | null {
  if (where === null) return null;
  if (where.kind === 'and') {
    for (const item of where.items) {
      const ids = namedConversations(item);
      if (ids !== null) return ids;
    }
    return null;
  }
  const isConversation = (e: Expr) =>
    e.kind === 'field' && e.field.kind === 'column' && e.field.name === 'conversation_id';
  const items =
    where.kind === 'in' ? where.items : where.kind === 'compare' && where.op === 'eq' ? [where.right] : null;
  const left = where.kind === 'in' || where.kind === 'compare' ? where.left : null;
  if (items === null || left === null || !isConversation(left)) return null;
  const ids = items.map((e) => (e.kind === 'literal' && typeof e.value === 'string' ? e.value : null));
  return ids.every((id) => id !== null) ? (ids as string[]) : null;
}

type DbRow = Record<string, unknown>;
const keyOf = (r: DbRow, n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => r[`k${i}`] ?? null));

/** The project's spans within the time bounds matching the plan and the signals: `WHERE` text. */
export function chSpanWhere(
  q: Pick<SpanGroupsQuery, 'projectId' | 'startedAfter' | 'startedBefore' | 'where' | 'signals'>,
  feedback: string,
  printField: ChFieldPrinter,
  params: ChParams,
): string {
  const parts = [`s.project_id = ${params.add(q.projectId, 'String')}`];
  if (q.startedAfter !== null) parts.push(`s.started_at >= ${params.add(q.startedAfter, 'Int64')}`);
  if (q.startedBefore !== null) parts.push(`s.started_at < ${params.add(q.startedBefore, 'Int64')}`);
  if (q.where !== null) parts.push(printChExpr(q.where, printField, params));
  const signals = signalSql(feedback, q.projectId, q.signals, params);
  if (signals !== null) parts.push(signals);
  return parts.join(' AND ');
}

export function createClickHouseSpanGroups(
  client: ClickHouseClient,
  table: string,
  feedback: string,
  printField: ChFieldPrinter,
) {
  /**
   * `source` replaces the table read with FINAL (its text and parameters; conversation-page.ts).
   * A filter naming its conversations reads only their traces' newest span versions: every
   * version of a span is in its trace, so the newest one the filter keeps is among them (the
   * search's conversations, 2 x 3 statements: seconds under FINAL over 1M spans).
   */
  return async (
    q: SpanGroupsQuery,
    given?: { readonly sql: string; readonly values: Record<string, unknown> },
  ): Promise<{ rows: SpanGroupRow[]; total: number }> => {
    const ids = given === undefined ? namedConversations(q.where) : null;
    // Their traces found once (a scan of one column), then each statement reads them by key.
    const traces =
      ids === null
        ? []
        : await selectRows<{ t: string }>(
            client,
            `SELECT DISTINCT trace_id AS t FROM ${table} WHERE project_id = {p:String} AND conversation_id IN (SELECT arrayJoin({ids:Array(String)}))`,
            { p: q.projectId, ids },
          );
    const source =
      given ??
      (ids === null
        ? undefined
        : {
            sql: `(${latestOfTraces(table, '*', TRACES)}) AS s`,
            values: { p: q.projectId, t: traces.map((r) => r.t) },
          });
    const params = new ChParams();
    const keys = q.keys.map((k, i) => ({
      sql: `${printField(k.field, params).sql} AS k${i}`,
      alias: k.alias,
      name: `k${i}`,
    }));
    const measures = (q.measures ?? []).map((me, i) => ({
      sql: `${measureSql(me, printField, params)} AS x${i}`,
      alias: me.alias,
      name: `x${i}`,
    }));
    const where = chSpanWhere(q, feedback, printField, params);
    const bounds = havingSql(q.having, printField, params);
    const having = bounds === null ? '' : ` HAVING ${bounds}`;
    const groupBy = keys.map((k) => k.name).join(', ');
    const byAlias = new Map([...keys, ...measures].map((k) => [k.alias, k.name]));
    const order = [...q.sort, { name: 'last_seen', direction: 'desc' as const }]
      .map(
        (o) =>
          `${byAlias.get(o.name) ?? (SPAN_GROUP_SUMS as readonly string[]).find((n) => n === o.name)} ${o.direction === 'asc' ? 'ASC' : 'DESC'}`,
      )
      .concat(keys.map((k) => `${k.name} ASC`))
      .join(', ');
    const select = keys.map((k) => k.sql).join(', ');
    const from = `FROM ${source?.sql ?? `${table} AS s FINAL`} WHERE ${where}`;
    // Read when each statement is sent: the statements add their own parameters as they print.
    const values = () => ({ ...params.values, ...source?.values });
    const rows = await selectRows<DbRow>(
      client,
      `SELECT ${select}, ${BUNDLE}${measures.map((m) => `, ${m.sql}`).join('')} ${from} GROUP BY ${groupBy}${having} ORDER BY ${order} LIMIT ${params.add(q.limit, 'Int64')} OFFSET ${params.add(q.offset, 'Int64')}`,
      values(),
    );
    const [{ n }] = (await selectRows<{ n: string }>(
      client,
      `SELECT count() AS n FROM (SELECT ${select} ${from} GROUP BY ${groupBy}${having})`,
      values(),
    )) as [{ n: string }];
    const onPage = new Set(rows.map((r) => keyOf(r, keys.length)));
    const models = new Map<string, SpanGroupRow['models'][number][]>();
    if (rows.length > 0) {
      const sums = TOKEN_COLUMNS.map((c) => `${counted(c)} AS ${c}`).join(', ');
      const byModel = await selectRows<DbRow>(
        client,
        `SELECT ${select}, coalesce(s.response_model, s.request_model, '') AS model, ${sums} ${from} GROUP BY ${groupBy}, model`,
        values(),
      );
      for (const r of byModel) {
        const k = keyOf(r, keys.length);
        if (!onPage.has(k)) continue;
        const m = { model: String(r.model), ...Object.fromEntries(TOKEN_COLUMNS.map((c) => [c, Number(r[c])])) };
        models.set(k, [...(models.get(k) ?? []), m as SpanGroupRow['models'][number]]);
      }
    }
    return {
      total: Number(n),
      rows: rows.map((r) => ({
        keys: Object.fromEntries(keys.map((k) => [k.alias, (r[k.name] ?? null) as string | number | null])),
        sums: Object.fromEntries(SPAN_GROUP_SUMS.map((c) => [c, Number(r[c] ?? 0)])) as SpanGroupRow['sums'],
        lists: Object.fromEntries(
          SPAN_GROUP_LISTS.map((c) => [c, [...(r[c] as string[])].sort()]),
        ) as SpanGroupRow['lists'],
        models: models.get(keyOf(r, keys.length)) ?? [],
        metrics: Object.fromEntries(
          measures.map((m) => [m.alias, r[m.name] === null || r[m.name] === undefined ? null : Number(r[m.name])]),
        ),
      })),
    };
  };
}
