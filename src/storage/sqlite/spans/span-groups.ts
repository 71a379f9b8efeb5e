// Grouped reads of agent spans on SQLite: one row per distinct value of the keys, with the
// figures of Weave's AgentSpanGroupRow (storage/spans/span-store.ts), then the token sums per model
// of the groups on the page. Values reach SQL only as parameters; keys print through the span
// field printer (an allow-list); sort names come from the keys' aliases and SPAN_GROUP_SUMS.
import type { SpanGroupRow, SpanGroupsQuery } from '../../spans/span-store.js';
import { SPAN_GROUP_LISTS, SPAN_GROUP_SUMS } from '../../spans/span-store.js';
import { TOKEN_COLUMNS } from '../../spans/span-rollups.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { printSqliteExpr, type FieldPrinter } from '../engine/dialect.js';
import { havingSql, measureSql, signalSql } from './span-filters.js';

const counted = (c: string) => `sum(CASE WHEN s.tokens_counted = 1 THEN coalesce(s.${c}, 0) ELSE 0 END)`;
const BUNDLE = [
  'count(*) AS span_count',
  "sum(CASE WHEN s.operation_name = 'invoke_agent' THEN 1 ELSE 0 END) AS invocation_count",
  'count(DISTINCT s.conversation_id) AS conversation_count',
  'count(DISTINCT s.trace_id) AS turn_count',
  `${counted('input_tokens')} AS total_input_tokens`,
  `${counted('cache_creation_input_tokens')} AS total_cache_creation_input_tokens`,
  `${counted('cache_read_input_tokens')} AS total_cache_read_input_tokens`,
  `${counted('output_tokens')} AS total_output_tokens`,
  `${counted('reasoning_tokens')} AS total_reasoning_tokens`,
  'sum(CASE WHEN s.ended_at IS NOT NULL THEN (s.ended_at - s.started_at) / 1000 ELSE 0 END) AS total_duration_ms',
  "sum(CASE WHEN s.status_code = 'ERROR' THEN 1 ELSE 0 END) AS error_count",
  'min(s.started_at) AS first_seen',
  'max(coalesce(s.ended_at, s.started_at)) AS last_seen',
  'json_group_array(DISTINCT s.agent_name) AS agent_names',
  'json_group_array(DISTINCT s.agent_version) AS agent_versions',
  'json_group_array(DISTINCT s.provider_name) AS provider_names',
  'json_group_array(DISTINCT s.request_model) AS request_models',
  'json_group_array(DISTINCT s.conversation_name) AS conversation_names',
].join(', ');
const MODEL = "coalesce(s.response_model, s.request_model, '')";

type DbRow = Record<string, unknown>;
const keyOf = (r: DbRow, n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => r[`k${i}`] ?? null));

/** The project's spans within the time bounds matching the plan (and signals): `WHERE` text and its parameters. */
export function spanWhere(
  q: Pick<SpanGroupsQuery, 'projectId' | 'startedAfter' | 'startedBefore' | 'where' | 'signals'>,
  printField: FieldPrinter,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [q.projectId];
  let sql = 's.project_id = ?';
  if (q.startedAfter !== null) {
    sql += ' AND s.started_at >= ?';
    params.push(q.startedAfter);
  }
  if (q.startedBefore !== null) {
    sql += ' AND s.started_at < ?';
    params.push(q.startedBefore);
  }
  if (q.where !== null) {
    const w = printSqliteExpr(q.where, printField);
    sql += ` AND ${w.sql}`;
    params.push(...w.params);
  }
  const signals = signalSql(q.projectId, q.signals);
  if (signals !== null) {
    sql += ` AND ${signals.sql}`;
    params.push(...signals.params);
  }
  return { sql, params };
}

export function createSqliteSpanGroups(reads: ReadThreads, printField: FieldPrinter) {
  return async (q: SpanGroupsQuery): Promise<{ rows: SpanGroupRow[]; total: number }> => {
    const keys = q.keys.map((k, i) => {
      const f = printField(k.field);
      return { sql: `${f.sql} AS k${i}`, params: f.params, alias: k.alias, name: `k${i}` };
    });
    const measures = (q.measures ?? []).map((me, i) => {
      const agg = measureSql(me, printField);
      return { sql: `${agg.sql} AS x${i}`, params: agg.params, alias: me.alias, name: `x${i}` };
    });
    const having = havingSql(q.having, printField);
    const havingText = having === null ? '' : ` HAVING ${having.sql}`;
    const havingParams = having?.params ?? [];
    const keyParams = [...keys.flatMap((k) => k.params), ...measures.flatMap((m) => m.params)];
    const { sql: where, params } = spanWhere(q, printField);
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
    const selectParams = keys.flatMap((k) => k.params);
    // The page and the count scan the same spans: on two reader threads at once.
    const [rows, [count]] = await Promise.all([
      reads.all<DbRow>(
        `SELECT ${select}, ${BUNDLE}${measures.map((m) => `, ${m.sql}`).join('')} FROM spans AS s WHERE ${where} GROUP BY ${groupBy}${havingText} ORDER BY ${order} LIMIT ? OFFSET ?`,
        [...keyParams, ...params, ...havingParams, q.limit, q.offset],
      ),
      reads.all<{ n: number }>(
        `SELECT count(*) AS n FROM (SELECT ${select} FROM spans AS s WHERE ${where} GROUP BY ${groupBy}${havingText})`,
        [...selectParams, ...params, ...havingParams],
      ),
    ]);
    const n = count?.n ?? 0;
    const onPage = new Set(rows.map((r) => keyOf(r, keys.length)));
    const models = new Map<string, SpanGroupRow['models'][number][]>();
    if (rows.length > 0) {
      const sums = TOKEN_COLUMNS.map((c) => `${counted(c)} AS ${c}`).join(', ');
      for (const r of await reads.all<DbRow>(
        `SELECT ${select}, ${MODEL} AS model, ${sums} FROM spans AS s WHERE ${where} GROUP BY ${groupBy}, model`,
        [...selectParams, ...params],
      )) {
        const k = keyOf(r, keys.length);
        if (!onPage.has(k)) continue;
        const m = { model: String(r.model), ...Object.fromEntries(TOKEN_COLUMNS.map((c) => [c, Number(r[c])])) };
        models.set(k, [...(models.get(k) ?? []), m as SpanGroupRow['models'][number]]);
      }
    }
    return {
      total: n,
      rows: rows.map((r) => ({
        keys: Object.fromEntries(keys.map((k) => [k.alias, (r[k.name] ?? null) as string | number | null])),
        sums: Object.fromEntries(SPAN_GROUP_SUMS.map((c) => [c, Number(r[c] ?? 0)])) as SpanGroupRow['sums'],
        lists: Object.fromEntries(
          SPAN_GROUP_LISTS.map((c) => [
            c,
            (JSON.parse(String(r[c])) as (string | null)[]).filter((v): v is string => v !== null).sort(),
          ]),
        ) as SpanGroupRow['lists'],
        models: models.get(keyOf(r, keys.length)) ?? [],
        metrics: Object.fromEntries(measures.map((m) => [m.alias, r[m.name] === null ? null : Number(r[m.name])])),
      })),
    };
  };
}
