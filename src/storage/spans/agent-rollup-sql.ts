// The SELECT of the agent rollups, shared by both engines (plain SQL both speak): one row per
// agent (or agent and version) of a project, its sums, sorted and paged; then the token sums
// per model of the rows on the page. Values are bound by the engine (named here by `param`).
import type { AgentRollupRow, AgentsQuery, ModelTokens } from './span-store.js';

const SORT_SQL: Readonly<Record<string, string>> = {
  agent_name: 'agent_name',
  agent_version: 'agent_version',
  invocation_count: 'invocation_count',
  span_count: 'span_count',
  total_input_tokens: 'total_input_tokens',
  total_output_tokens: 'total_output_tokens',
  total_duration_ms: 'total_duration_ms',
  error_count: 'error_count',
  first_seen: 'first_seen',
  last_seen: 'last_seen',
};

/** `param(name)`: the engine's placeholder for a named value of `values`. */
export function agentRollupSelect(q: AgentsQuery, table: string, param: (name: string) => string) {
  const keys = q.byVersion ? 'agent_name, agent_version' : 'agent_name';
  const where = `project_id = ${param('project')}${q.agentName === null ? '' : ` AND agent_name = ${param('agent')}`}`;
  const order = [
    ...q.sort.map((s) => `${SORT_SQL[s.field]} ${s.direction === 'asc' ? 'ASC' : 'DESC'}`),
    'agent_name ASC',
  ];
  if (q.byVersion) order.push('agent_version ASC');
  // Sums under other names first: ClickHouse reads an alias equal to a column's name inside
  // the aggregate itself (sum(span_count) AS span_count).
  const inner = `SELECT ${keys}, sum(invocation_count) AS g_invocations, sum(span_count) AS g_spans,
    sum(error_count) AS g_errors, sum(total_duration_ms) AS g_duration, sum(input_tokens) AS g_input,
    sum(output_tokens) AS g_output, min(first_seen) AS g_first, max(last_seen) AS g_last
    FROM ${table} WHERE ${where} GROUP BY ${keys}`;
  const groups = `SELECT agent_name, ${q.byVersion ? 'agent_version' : "'' AS agent_version"}, g_invocations AS invocation_count,
    g_spans AS span_count, g_errors AS error_count, g_duration AS total_duration_ms, g_input AS total_input_tokens,
    g_output AS total_output_tokens, g_first AS first_seen, g_last AS last_seen FROM (${inner}) AS g WHERE g_spans > 0`;
  return {
    page: `${groups} ORDER BY ${order.join(', ')} LIMIT ${param('limit')} OFFSET ${param('offset')}`.replace(
      /\s+/g,
      ' ',
    ),
    count: `SELECT count(*) AS n FROM (${groups}) AS g`.replace(/\s+/g, ' '),
    models:
      `SELECT agent_name, ${q.byVersion ? 'agent_version' : "'' AS agent_version"}, model, sum(input_tokens) AS input_tokens,
      sum(output_tokens) AS output_tokens, sum(reasoning_tokens) AS reasoning_tokens,
      sum(cache_creation_input_tokens) AS cache_creation_input_tokens, sum(cache_read_input_tokens) AS cache_read_input_tokens
      FROM ${table} WHERE ${where} GROUP BY ${keys}, model`.replace(/\s+/g, ' '),
    values: { project: q.projectId, agent: q.agentName, limit: q.limit, offset: q.offset },
  };
}

/** Each rollup row with the token sums of its models. */
export function withModels(
  rows: readonly Omit<AgentRollupRow, 'models'>[],
  models: readonly (ModelTokens & { agent_name: string; agent_version: string })[],
): AgentRollupRow[] {
  const key = (r: { agent_name: string; agent_version: string }) => `${r.agent_name}\u0000${r.agent_version}`;
  const byRow = new Map<string, ModelTokens[]>();
  for (const { agent_name, agent_version, ...m } of models) {
    const k = key({ agent_name, agent_version });
    byRow.set(k, [...(byRow.get(k) ?? []), m]);
  }
  return rows.map((r) => ({ ...r, models: byRow.get(key(r)) ?? [] }));
}
