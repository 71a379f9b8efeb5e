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
    sum(output_tokens) AS g_output, sum(orchestration_count) AS g_orchestrations, min(first_seen) AS g_first,
    max(last_seen) AS g_last
    FROM ${table} WHERE ${where} GROUP BY ${keys}`;
  const groups = `SELECT agent_name, ${q.byVersion ? 'agent_version' : "'' AS agent_version"}, g_invocations AS invocation_count,
    g_spans AS span_count, g_errors AS error_count, g_duration AS total_duration_ms, g_input AS total_input_tokens,
    g_output AS total_output_tokens, g_orchestrations AS orchestration_count, g_first AS first_seen, g_last AS last_seen
    FROM (${inner}) AS g WHERE g_spans > 0`;
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

/**
 * The members of orchestrators: per orchestrator, each other agent of the traces it ran, with
 * its sums there and per model (a member's figures inside the orchestrator's runs). `rows` is
 * the engine's view of the per-trace rollups (ClickHouse: their newest versions).
 */
export function orchestratorMembersSelect(rows: string, param: (name: string) => string): string {
  const runs = `SELECT DISTINCT agent_name, trace_id FROM ${rows} AS r
    WHERE project_id = ${param('project')} AND agent_name IN (${param('names')}) AND orchestration_count > 0`;
  return `SELECT o.agent_name AS orchestrator, m.agent_name AS agent_name, m.model AS model,
    sum(m.invocation_count) AS invocation_count, sum(m.span_count) AS span_count, sum(m.error_count) AS error_count,
    sum(m.total_duration_ms) AS total_duration_ms, sum(m.input_tokens) AS input_tokens,
    sum(m.output_tokens) AS output_tokens, sum(m.reasoning_tokens) AS reasoning_tokens,
    sum(m.cache_creation_input_tokens) AS cache_creation_input_tokens,
    sum(m.cache_read_input_tokens) AS cache_read_input_tokens, sum(m.orchestration_count) AS orchestration_count,
    min(m.first_seen) AS first_seen, max(m.last_seen) AS last_seen
    FROM (${runs}) AS o JOIN ${rows} AS m ON m.trace_id = o.trace_id
    WHERE m.project_id = ${param('project')} AND m.agent_name <> o.agent_name AND m.span_count > 0
    GROUP BY o.agent_name, m.agent_name, m.model`.replace(/\s+/g, ' ');
}

/** One row per (orchestrator, member): orchestratorMembersSelect's rows summed over models. */
export function membersOf(
  rows: readonly (Record<string, string | number> & { orchestrator: string; agent_name: string; model: string })[],
): Map<string, AgentRollupRow[]> {
  const byKey = new Map<string, { orchestrator: string; row: AgentRollupRow & { models: ModelTokens[] } }>();
  const n = (v: unknown) => Number(v ?? 0);
  for (const r of rows) {
    const key = `${r.orchestrator}\u0000${r.agent_name}`;
    let entry = byKey.get(key);
    if (entry === undefined) {
      entry = {
        orchestrator: r.orchestrator,
        row: {
          agent_name: r.agent_name,
          agent_version: '',
          invocation_count: 0,
          span_count: 0,
          error_count: 0,
          total_duration_ms: 0,
          total_input_tokens: 0,
          total_output_tokens: 0,
          orchestration_count: 0,
          first_seen: n(r.first_seen),
          last_seen: n(r.last_seen),
          models: [],
        },
      };
      byKey.set(key, entry);
    }
    const row = entry.row as { -readonly [K in keyof AgentRollupRow]: AgentRollupRow[K] } & { models: ModelTokens[] };
    row.invocation_count += n(r.invocation_count);
    row.span_count += n(r.span_count);
    row.error_count += n(r.error_count);
    row.total_duration_ms += n(r.total_duration_ms);
    row.total_input_tokens += n(r.input_tokens);
    row.total_output_tokens += n(r.output_tokens);
    row.orchestration_count += n(r.orchestration_count);
    row.first_seen = Math.min(row.first_seen, n(r.first_seen));
    row.last_seen = Math.max(row.last_seen, n(r.last_seen));
    row.models.push({
      model: r.model,
      input_tokens: n(r.input_tokens),
      output_tokens: n(r.output_tokens),
      reasoning_tokens: n(r.reasoning_tokens),
      cache_creation_input_tokens: n(r.cache_creation_input_tokens),
      cache_read_input_tokens: n(r.cache_read_input_tokens),
    });
  }
  const out = new Map<string, AgentRollupRow[]>();
  for (const { orchestrator, row } of byKey.values()) out.set(orchestrator, [...(out.get(orchestrator) ?? []), row]);
  for (const list of out.values())
    list.sort((a, b) => a.first_seen - b.first_seen || a.agent_name.localeCompare(b.agent_name));
  return out;
}
