// Agent spans: what /agents/otel/v1/traces stores and /agents/spans/query reads. The project of
// each resource is its wandb.entity + wandb.project, else the export's project_id header (the
// resource wins, as in Weave: an SDK re-initialised for another project keeps its resource);
// a span with neither is rejected and reported in partial_success, never stored elsewhere.
import type { Static } from 'typebox';
import {
  MAX_CONVERSATION_CHAT_TURNS,
  MAX_CONVERSATION_SPANS,
  type AgentConversationChatReq,
  type AgentConversationSpansReq,
  type AgentCustomAttrsSchemaReq,
  type AgentSortField,
  type AgentSpansQueryReq,
  type AgentTraceChatReq,
  type AgentsQueryReq,
  type AgentVersionsQueryReq,
} from '../../api/agents.js';
import type { AgentSearchReq } from '../../api/agents-search.js';
import type { AgentSpanStatsReq } from '../../api/agents-stats.js';
import { NotFoundError } from '../../api/errors.js';
import { traceChat } from './chat-view.js';
import { conversationChatWithFeedback, conversationMarkers, turnChatWithFeedback } from './agent-feedback.js';
import { searchMessages } from './message-search.js';
import { querySpanGroups } from './span-groups.js';
import { spanStats } from './span-stats.js';
import { signalsOf } from './conversation-filters.js';
import { customAttrColumns, pick } from './custom-attr-columns.js';
import { modelCosts, spanPricer } from './token-costs.js';
import { AGENT_QUERY_LIMIT } from '../../api/agents.js';
import { InvalidRequestError, InvalidFieldError } from '../../api/errors.js';
import type { OtlpExport } from '../../ingest/otlp/otlp-spans.js';
import { spanRow } from '../../ingest/genai/span-row.js';
import { compileQuery } from '../../query/compile-query.js';
import type { SortTerm } from '../../query/plan.js';
import { SPAN_COLUMNS, SPAN_COLUMN_TYPES, type SpanRow } from '../../query/span-columns.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { AgentRollupRow, SpanStore } from '../../storage/spans/span-store.js';
import type { CostStore } from '../../storage/costs/cost-store.js';
import type { FeedbackStore } from '../../storage/feedback/feedback-store.js';
import { formatTimestamp, parseTimestamp } from '../../time.js';

const PROJECT = /^[^/\u0000-\u001f]+\/[^/\u0000-\u001f]+$/;
/** As many rejections described in the answer (Weave's MAX_INGEST_ERRORS_REPORTED). */
const DESCRIBED = 20;
const LIST_COLUMNS: ReadonlySet<string> = new Set(
  SPAN_COLUMNS.filter((c) => (SPAN_COLUMN_TYPES as Record<string, string>)[c] === 'json'),
);
const MAPS: ReadonlySet<string> = new Set([
  'custom_attrs_string',
  'custom_attrs_int',
  'custom_attrs_float',
  'custom_attrs_bool',
]);

export interface AgentExportResult {
  readonly rejected: number;
  readonly message: string;
}

/** The project a resource names, null when it names none. */
function resourceProject(resource: Record<string, unknown>): string | null {
  const project = resource['wandb.project'];
  const entity = resource['wandb.entity'];
  if (typeof project === 'string' && project.includes('/')) return project;
  if (typeof project === 'string' && project !== '' && typeof entity === 'string' && entity !== '')
    return `${entity}/${project}`;
  return null;
}

/** A stored span as Weave's AgentSpanSchema: lists and maps decoded, times as ISO 8601. */
function renderSpan(row: SpanRow, details: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of SPAN_COLUMNS) {
    const v = row[c];
    if (LIST_COLUMNS.has(c)) out[c] = typeof v === 'string' ? JSON.parse(v) : MAPS.has(c) ? {} : [];
    else out[c] = v;
  }
  out.started_at = typeof row.started_at === 'number' ? formatTimestamp(row.started_at) : null;
  out.ended_at = typeof row.ended_at === 'number' ? formatTimestamp(row.ended_at) : null;
  if (out.eval_trial_index === -1) out.eval_trial_index = null;
  out.raw_span_dump = details ? row.raw_span_dump : null;
  for (const c of [
    'input_cost_usd',
    'output_cost_usd',
    'cache_read_cost_usd',
    'cache_creation_cost_usd',
    'total_cost_usd',
  ])
    out[c] = null;
  return out;
}

type SortBy = { readonly field: AgentSortField; readonly direction?: 'asc' | 'desc' | undefined };
const DEFAULT_AGENT_SORT: readonly SortBy[] = [{ field: 'last_seen', direction: 'desc' }];

export function createAgentsService(
  spans: SpanStore,
  costs: CostStore,
  feedback: FeedbackStore,
  /** Told of every group of spans once written (the signals worker scores finished turns); must not throw. */
  onWritten: (rows: readonly SpanRow[]) => void = () => {},
) {
  async function rollups(
    projectId: string,
    agentName: string | null,
    byVersion: boolean,
    page: { sort_by?: readonly SortBy[] | null; limit?: number; offset?: number; include_costs?: boolean },
  ) {
    const { rows, total } = await spans.agents({
      projectId,
      agentName,
      byVersion,
      sort: (page.sort_by ?? DEFAULT_AGENT_SORT).map((s) => ({ field: s.field, direction: s.direction ?? 'desc' })),
      limit: page.limit ?? AGENT_QUERY_LIMIT.default,
      offset: page.offset ?? 0,
    });
    const price = async (list: readonly AgentRollupRow[]) =>
      page.include_costs === true
        ? (
            await modelCosts(
              costs,
              projectId,
              list.map((r) => ({ models: r.models, at: r.last_seen })),
            )
          ).map((c) => c?.total ?? null)
        : list.map(() => null);
    const priced = await price(rows);
    const figures = (r: AgentRollupRow, cost: number | null) => ({
      invocation_count: r.invocation_count,
      span_count: r.span_count,
      total_input_tokens: r.total_input_tokens,
      total_output_tokens: r.total_output_tokens,
      total_duration_ms: r.total_duration_ms,
      error_count: r.error_count,
      total_cost_usd: cost,
    });
    const orchestrators = byVersion ? [] : rows.filter((r) => r.orchestration_count > 0).map((r) => r.agent_name);
    const members = await spans.orchestratorMembers(projectId, orchestrators);
    const membersOf = async (name: string) => {
      const list = members.get(name) ?? [];
      const costsOf = await price(list);
      return list.map((m, i) => ({ agent_name: m.agent_name, ...figures(m, costsOf[i] ?? null) }));
    };
    const items = await Promise.all(
      rows.map(async (r, i) => ({
        project_id: projectId,
        agent_name: r.agent_name,
        ...(byVersion ? { agent_version: r.agent_version } : {}),
        ...figures(r, priced[i] ?? null),
        first_seen: formatTimestamp(r.first_seen),
        last_seen: formatTimestamp(r.last_seen),
        kind: r.orchestration_count > 0 ? ('orchestrator' as const) : ('agent' as const),
        ...(!byVersion && r.orchestration_count > 0 ? { members: await membersOf(r.agent_name) } : {}),
      })),
    );
    return { items, total };
  }

  return {
    search: (req: Static<typeof AgentSearchReq>) => searchMessages(spans, req),
    stats: (req: Static<typeof AgentSpanStatsReq>) => spanStats(spans, req),

    async traceChat(req: Static<typeof AgentTraceChatReq>) {
      const rows = await spans.traceSpans(req.project_id, [req.trace_id]);
      if (rows.length === 0) throw new NotFoundError(`Trace ${req.trace_id} has no agent spans in ${req.project_id}`);
      const chat = traceChat(req.trace_id, rows, await spanPricer(costs, req.project_id, rows), {
        modelToolCalls: req.include_model_tool_calls === true,
      });
      return req.include_feedback === true ? turnChatWithFeedback(feedback, req.project_id, chat) : chat;
    },

    async conversationChat(req: Static<typeof AgentConversationChatReq>) {
      const limit = req.limit ?? MAX_CONVERSATION_CHAT_TURNS;
      const offset = req.offset ?? 0;
      const traces = await spans.conversationTraces(req.project_id, req.conversation_id);
      // offset counts back from the most recent turn; the page reads oldest first.
      const end = Math.max(0, traces.length - offset);
      const page = traces.slice(Math.max(0, end - limit), end);
      const rows = await spans.traceSpans(
        req.project_id,
        page.map((t) => t.trace_id),
      );
      const price = await spanPricer(costs, req.project_id, rows);
      const byTrace = new Map<string, SpanRow[]>();
      for (const r of rows) byTrace.set(String(r.trace_id), [...(byTrace.get(String(r.trace_id)) ?? []), r]);
      const turns = page.map((t) =>
        traceChat(t.trace_id, byTrace.get(t.trace_id) ?? [], price, {
          modelToolCalls: req.include_model_tool_calls === true,
        }),
      );
      let cost: number | null = null;
      for (const t of turns) if (typeof t.total_cost_usd === 'number') cost = (cost ?? 0) + t.total_cost_usd;
      const res = {
        conversation_id: req.conversation_id,
        turns,
        total_turns: traces.length,
        has_more: end - page.length > 0,
        limit,
        offset,
        total_cost_usd: cost,
      };
      return req.include_feedback === true ? conversationChatWithFeedback(feedback, req.project_id, res) : res;
    },

    async customAttrsSchema(req: Static<typeof AgentCustomAttrsSchemaReq>) {
      const limit = req.limit ?? 200;
      const offset = req.offset ?? 0;
      const keys = await spans.customAttrKeys({
        projectId: req.project_id,
        where: req.query ? compileQuery(req.query, spanFieldCatalog) : null,
        startedAfter: req.started_after ? parseTimestamp(req.started_after, 'started_after') : null,
        startedBefore: req.started_before ? parseTimestamp(req.started_before, 'started_before') : null,
        limit: limit + 1,
        offset,
      });
      const attributes = keys.slice(0, limit).map((k) => ({
        source: k.source,
        key: k.key,
        value_type: k.source.slice('custom_attrs_'.length) as 'string' | 'int' | 'float' | 'bool',
        span_count: k.span_count,
      }));
      return { attributes, limit, offset, has_more: keys.length > limit };
    },

    async conversationSpans(req: Static<typeof AgentConversationSpansReq>) {
      const ids = [...new Set(req.conversation_ids ?? [])];
      const rows = await spans.conversationSpans(
        req.project_id,
        ids,
        req.started_after ? parseTimestamp(req.started_after, 'started_after') : null,
        req.started_before ? parseTimestamp(req.started_before, 'started_before') : null,
        MAX_CONVERSATION_SPANS,
      );
      const byId = new Map(ids.map((id) => [id, [] as typeof rows]));
      for (const r of rows) byId.get(r.conversation_id)?.push(r);
      const markers = await conversationMarkers(feedback, req.project_id, byId);
      return {
        conversations: ids.map((id) => ({
          conversation_id: id,
          spans: byId.get(id)!.map((s) => ({
            operation_name: s.operation_name ?? '',
            trace_id: s.trace_id,
            span_id: s.span_id,
            status: s.status_code,
            duration_ms: s.ended_at === null ? 0 : Math.max(0, Math.floor((s.ended_at - s.started_at) / 1000)),
          })),
          spans_feedback: markers.get(id) ?? [],
        })),
      };
    },

    async queryAgents(req: Static<typeof AgentsQueryReq>) {
      const { items, total } = await rollups(req.project_id, req.filters?.agent_name ?? null, false, req);
      return { agents: items, total_count: total };
    },

    async queryAgentVersions(req: Static<typeof AgentVersionsQueryReq>) {
      const { items, total } = await rollups(req.project_id, req.agent_name, true, req);
      return { versions: items as ((typeof items)[number] & { agent_version: string })[], total_count: total };
    },

    /** The projects an export writes to (checked for access by the caller before ingest). */
    projectsOf(exp: OtlpExport, header: string | undefined): (string | null)[] {
      if (header !== undefined && header !== '' && !PROJECT.test(header))
        throw new InvalidRequestError(
          `The project_id header must be "<entity>/<project>", got ${JSON.stringify(header.slice(0, 200))}`,
        );
      return exp.resources.map((r) => {
        const p = resourceProject(r.resource);
        if (p !== null && !PROJECT.test(p))
          throw new InvalidRequestError(
            `wandb.entity and wandb.project must make "<entity>/<project>", got ${JSON.stringify(p.slice(0, 200))}`,
          );
        return p ?? (header === undefined || header === '' ? null : header);
      });
    },

    async ingest(exp: OtlpExport, projects: readonly (string | null)[], wbUserId: string): Promise<AgentExportResult> {
      const reasons = exp.rejected.map(
        (r) => `Rejected span (name=${JSON.stringify(r.name)} trace_id=${r.traceId} span_id=${r.spanId}): ${r.reason}`,
      );
      const rows: SpanRow[] = [];
      exp.resources.forEach((r, i) => {
        const projectId = projects[i] ?? null;
        for (const span of r.spans) {
          if (projectId === null) {
            reasons.push(
              `Rejected span (name=${JSON.stringify(span.name)} trace_id=${span.traceId} span_id=${span.spanId}): no project (set the resource attributes wandb.entity and wandb.project, or send the project_id header)`,
            );
            continue;
          }
          rows.push(spanRow(span, r.resource, { projectId, wbUserId }));
        }
      });
      await spans.write(rows);
      onWritten(rows);
      const more = reasons.length > DESCRIBED ? ` (and ${reasons.length - DESCRIBED} more)` : '';
      return { rejected: reasons.length, message: reasons.slice(0, DESCRIBED).join('; ') + more };
    },

    async querySpans(req: Static<typeof AgentSpansQueryReq>) {
      if ((req.group_by?.length ?? 0) > 0) return querySpanGroups(spans, costs, req);
      for (const name of ['measures', 'group_filters', 'group_distributions', 'insight_filters'] as const)
        if ((req[name]?.length ?? 0) > 0) throw new InvalidRequestError(`${name} requires group_by`);
      if (signalsOf(req.signal_filters) !== null) throw new InvalidRequestError('signal_filters require group_by');
      const only = customAttrColumns(req.custom_attr_columns ?? []);
      const sort: SortTerm[] = (req.sort_by ?? []).map((s, i) => {
        try {
          return { field: spanFieldCatalog.resolve(s.field), direction: s.direction ?? 'desc' };
        } catch (e) {
          if (e instanceof InvalidFieldError) throw new InvalidFieldError(e.message, ['body', 'sort_by', i, 'field']);
          throw e;
        }
      });
      const details = req.include_details === true;
      const { rows, total } = await spans.query({
        projectId: req.project_id,
        where: req.query ? compileQuery(req.query, spanFieldCatalog) : null,
        sort,
        limit: req.limit ?? AGENT_QUERY_LIMIT.default,
        offset: req.offset ?? 0,
        startedAfter: req.started_after ? parseTimestamp(req.started_after, 'started_after') : null,
        startedBefore: req.started_before ? parseTimestamp(req.started_before, 'started_before') : null,
        columns: details ? SPAN_COLUMNS : SPAN_COLUMNS.filter((c) => c !== 'raw_span_dump'),
      });
      const price = req.include_costs === true ? await spanPricer(costs, req.project_id, rows) : () => null;
      const rendered = rows.map((r) => {
        const out = renderSpan(r, details);
        if (only !== null) for (const c of MAPS) out[c] = pick(out[c] as Record<string, unknown>, only.get(c));
        const cost = price(r);
        // Input includes cache reads and writes, priced at their own rates; the cache parts are not split out.
        if (cost !== null)
          Object.assign(out, { input_cost_usd: cost.input, output_cost_usd: cost.output, total_cost_usd: cost.total });
        return out;
      });
      return { spans: rendered, groups: [], total_count: total };
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
