// Weave's agent API (GenAI spans): the OTLP export the newest Weave SDKs send agent spans to,
// and the read routes over them. Shapes follow Weave's weave/shared/agents/types.py; response
// models carry every defaulted field. Weft adds owner_agent_name / owner_agent_version to a
// span: the agent of its nearest invoke_agent ancestor-or-self.
import { Type } from 'typebox';
import { DateTime, Nullable, ProjectId, SafeInteger, Strict } from './common.js';
import { otlpRouteBase } from './otlp.js';
import { AgentGroupByRef } from './agent-group-by.js';
import { AgentConversationSpanFeedback, ChatFeedbackField } from './agent-feedback.js';
import { searchRoutes } from './agents-search.js';
import { AgentSpanMeasureSpec, statsRoutes } from './agents-stats.js';
import { AgentSpanValueRef } from './agent-span-values.js';
import {
  AgentInsightFilter,
  AgentSignalFilter,
  AgentSpanGroupDistributionSpec,
  AgentSpanGroupFilter,
  DISTRIBUTION_LIMITS,
} from './agent-span-filters.js';
import { historyRoutes } from './agents-history.js';
import { Query } from './query.js';
import { List } from './limits.js';
import { defineRoute, type RouteSpec } from './route-spec.js';

const tag = 'Agents';
/** Weave's DEFAULT_AGENT_QUERY_LIMIT and MAX_AGENT_QUERY_LIMIT. */
export const AGENT_QUERY_LIMIT = { default: 100, max: 10_000 } as const;

export const AgentSortBy = Strict({
  field: Type.String({ minLength: 1, maxLength: 500 }),
  direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
});

export const AgentSpansQueryReq = Strict({
  project_id: ProjectId,
  query: Type.Optional(Nullable(Query)),
  group_by: Type.Optional(Nullable(List(AgentGroupByRef, 20))),
  measures: Type.Optional(List(AgentSpanMeasureSpec, 100)),
  group_filters: Type.Optional(List(AgentSpanGroupFilter, 100)),
  group_distributions: Type.Optional(List(AgentSpanGroupDistributionSpec, DISTRIBUTION_LIMITS.specs)),
  custom_attr_columns: Type.Optional(List(AgentSpanValueRef, 100)),
  signal_filters: Type.Optional(Nullable(AgentSignalFilter)),
  insight_filters: Type.Optional(List(AgentInsightFilter, 100)),
  sort_by: Type.Optional(Nullable(List(AgentSortBy, 20))),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: AGENT_QUERY_LIMIT.max })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  started_after: Type.Optional(Nullable(DateTime)),
  started_before: Type.Optional(Nullable(DateTime)),
  include_details: Type.Optional(Type.Boolean()),
  include_costs: Type.Optional(Type.Boolean()),
});

export const AgentSpansQueryRes = Type.Object({
  /** AgentSpanSchema rows: every column of query/span-columns.ts, lists and maps decoded, times as ISO 8601. */
  spans: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  groups: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  total_count: SafeInteger(),
});

export { AgentGroupByRef };

export const agentsOtlpRoutes = {
  agentsOtelTraces: defineRoute({
    ...otlpRouteBase,
    tag,
    id: 'agents_otel_export',
    path: '/agents/otel/v1/traces',
    summary:
      'Export GenAI agent spans (OTLP/HTTP, protobuf or JSON). The project: the resource attributes ' +
      'wandb.entity and wandb.project, else the project_id header; a span with neither is rejected.',
  }),
} as const satisfies Record<string, RouteSpec>;

const spanRoutes = {
  agentSpansQuery: defineRoute({
    access: 'read',
    id: 'agents_spans_query',
    method: 'POST',
    path: '/agents/spans/query',
    tag,
    summary: 'Query agent spans (Weave query language over span fields and custom attributes)',
    body: AgentSpansQueryReq,
    response: AgentSpansQueryRes,
    errors: [400],
  }),
} as const satisfies Record<string, RouteSpec>;

/** Sort keys of /agents/query and /agents/agent-versions/query (Weave's AgentSchema fields). */
export const AGENT_SORT_FIELDS = [
  'agent_name',
  'agent_version',
  'invocation_count',
  'span_count',
  'total_input_tokens',
  'total_output_tokens',
  'total_duration_ms',
  'error_count',
  'first_seen',
  'last_seen',
] as const;
export type AgentSortField = (typeof AGENT_SORT_FIELDS)[number];
const AgentSortField = Type.Union(AGENT_SORT_FIELDS.map((f) => Type.Literal(f)));
const AgentsSortBy = Strict({
  field: AgentSortField,
  direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
const Page = {
  sort_by: Type.Optional(Nullable(List(AgentsSortBy, 10))),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: AGENT_QUERY_LIMIT.max })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  include_costs: Type.Optional(Type.Boolean()),
};

export const AgentsQueryReq = Strict({
  project_id: ProjectId,
  filters: Type.Optional(Nullable(Strict({ agent_name: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))) }))),
  ...Page,
});

export const AgentVersionsQueryReq = Strict({
  project_id: ProjectId,
  agent_name: Type.String({ minLength: 1, maxLength: 1000 }),
  ...Page,
});

/** An agent's figures, in an agents row and in an orchestrator's members. */
const figureFields = {
  invocation_count: SafeInteger(),
  span_count: SafeInteger(),
  total_input_tokens: SafeInteger(),
  total_output_tokens: SafeInteger(),
  total_duration_ms: SafeInteger(),
  error_count: SafeInteger(),
};
const agentFields = {
  project_id: Type.String(),
  agent_name: Type.String(),
  ...figureFields,
  first_seen: Nullable(DateTime),
  last_seen: Nullable(DateTime),
  total_cost_usd: Nullable(Type.Number()),
};
/** Another agent of an orchestrator's runs, with its figures inside those runs (Weft's addition). */
export const AgentMemberSchema = Type.Object({
  agent_name: Type.String(),
  ...figureFields,
  total_cost_usd: Nullable(Type.Number()),
});
/**
 * Weft's additions: `kind` ("orchestrator" for an agent that ran other agents: a Strands Swarm,
 * an OpenAI Agents workflow; else "agent"), and an orchestrator's `members`, first seen first.
 */
const kindFields = {
  kind: Type.Union([Type.Literal('agent'), Type.Literal('orchestrator')]),
  members: Type.Optional(Type.Array(AgentMemberSchema)),
};
export const AgentSchema = Type.Object({ ...agentFields, ...kindFields });
export const AgentVersionSchema = Type.Object({ ...agentFields, kind: kindFields.kind, agent_version: Type.String() });
export const AgentsQueryRes = Type.Object({ agents: Type.Array(AgentSchema), total_count: SafeInteger() });
export const AgentVersionsQueryRes = Type.Object({
  versions: Type.Array(AgentVersionSchema),
  total_count: SafeInteger(),
});

const rollupRoutes = {
  agentsQuery: defineRoute({
    access: 'read',
    id: 'agents_query',
    method: 'POST',
    path: '/agents/query',
    tag,
    summary: 'List the agents of a project with their figures (kept on write)',
    body: AgentsQueryReq,
    response: AgentsQueryRes,
    errors: [400],
  }),
  agentVersionsQuery: defineRoute({
    access: 'read',
    id: 'agents_versions_query',
    method: 'POST',
    path: '/agents/agent-versions/query',
    tag,
    summary: "List an agent's versions with their figures",
    body: AgentVersionsQueryReq,
    response: AgentVersionsQueryRes,
    errors: [400],
  }),
} as const satisfies Record<string, RouteSpec>;

/** Weave's MAX_CONVERSATION_CHAT_TURNS: the most turns one conversation page holds. */
export const MAX_CONVERSATION_CHAT_TURNS = 50;

export const AgentTraceChatReq = Strict({
  project_id: ProjectId,
  trace_id: Type.String({ minLength: 1, maxLength: 128 }),
  include_feedback: Type.Optional(Type.Boolean()),
  include_model_tool_calls: Type.Optional(Type.Boolean()),
});

export const AgentConversationChatReq = Strict({
  project_id: ProjectId,
  conversation_id: Type.String({ minLength: 1, maxLength: 1000 }),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_CONVERSATION_CHAT_TURNS })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  include_feedback: Type.Optional(Type.Boolean()),
  include_model_tool_calls: Type.Optional(Type.Boolean()),
});

/** AgentTraceChatRes: the turn's header figures and its messages (AgentChatMessage). */
export const AgentTraceChatRes = Type.Object({
  trace_id: Type.String(),
  root_span_name: Nullable(Type.String()),
  agent_name: Nullable(Type.String()),
  agent_version: Nullable(Type.String()),
  status_code: Nullable(Type.String()),
  provider: Nullable(Type.String()),
  started_at: Nullable(DateTime),
  ended_at: Nullable(DateTime),
  wb_user_id: Nullable(Type.String()),
  total_duration_ms: Nullable(SafeInteger()),
  total_cost_usd: Nullable(Type.Number()),
  total_input_tokens: SafeInteger(),
  total_output_tokens: SafeInteger(),
  total_reasoning_tokens: SafeInteger(),
  total_cache_creation_input_tokens: SafeInteger(),
  total_cache_read_input_tokens: SafeInteger(),
  /** AgentChatMessage; with include_feedback, a message of a span with feedback carries `feedback`. */
  messages: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  /** With include_feedback: the feedback on the turn's agent_turn ref. */
  feedback: ChatFeedbackField,
});

export const AgentConversationChatRes = Type.Object({
  conversation_id: Type.String(),
  turns: Type.Array(AgentTraceChatRes),
  total_turns: SafeInteger(),
  has_more: Type.Boolean(),
  limit: SafeInteger(),
  offset: SafeInteger(),
  total_cost_usd: Nullable(Type.Number()),
  /** With include_feedback: the feedback on the conversation's agent_conversation ref. */
  feedback: ChatFeedbackField,
});

export const AgentCustomAttrsSchemaReq = Strict({
  project_id: ProjectId,
  query: Type.Optional(Nullable(Query)),
  started_after: Type.Optional(Nullable(DateTime)),
  started_before: Type.Optional(Nullable(DateTime)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});

export const AgentCustomAttrsSchemaRes = Type.Object({
  attributes: Type.Array(
    Type.Object({
      source: Type.String(),
      key: Type.String(),
      value_type: Type.Union(['string', 'int', 'float', 'bool'].map((v) => Type.Literal(v))),
      span_count: SafeInteger(),
    }),
  ),
  limit: SafeInteger(),
  offset: SafeInteger(),
  has_more: Type.Boolean(),
});

/** Weave's MAX_CONVERSATION_SPANS: the most spans one conversation's sequence holds. */
export const MAX_CONVERSATION_SPANS = 200;

/** A time with its zone (Weave's AwareDatetime): a bare local time is refused. */
const ZonedDateTime = Type.String({ format: 'date-time', pattern: '([Zz]|[+-]\\d{2}:?\\d{2})$' });

export const AgentConversationSpansReq = Strict({
  project_id: ProjectId,
  conversation_ids: Type.Optional(List(Type.String({ maxLength: 1000 }), AGENT_QUERY_LIMIT.max)),
  started_after: Type.Optional(Nullable(ZonedDateTime)),
  started_before: Type.Optional(Nullable(ZonedDateTime)),
});

export const AgentConversationSpansRes = Type.Object({
  conversations: Type.Array(
    Type.Object({
      conversation_id: Type.String(),
      spans: Type.Array(
        Type.Object({
          operation_name: Type.String(),
          trace_id: Type.String(),
          span_id: Type.String(),
          status: Type.String(),
          duration_ms: SafeInteger(),
        }),
      ),
      spans_feedback: Type.Array(AgentConversationSpanFeedback),
    }),
  ),
});

const chatRoutes = {
  agentConversationSpans: defineRoute({
    access: 'read',
    id: 'agents_conversation_spans',
    method: 'POST',
    path: '/agents/conversations/spans',
    tag,
    summary: "Each conversation's span sequence (the first 200 by start), for the conversations list",
    body: AgentConversationSpansReq,
    response: AgentConversationSpansRes,
    errors: [400],
  }),
  agentCustomAttrsSchema: defineRoute({
    access: 'read',
    id: 'agents_custom_attrs_schema',
    method: 'POST',
    path: '/agents/spans/custom-attrs/schema',
    tag,
    summary: 'The custom attribute keys of the matching spans, with their types and how many spans carry each',
    body: AgentCustomAttrsSchemaReq,
    response: AgentCustomAttrsSchemaRes,
    errors: [400],
  }),
  agentTraceChat: defineRoute({
    access: 'read',
    id: 'agents_trace_chat',
    method: 'POST',
    path: '/agents/traces/chat',
    tag,
    summary: 'One turn (a trace) as a chat: user and assistant messages, tool calls, agents and sub-agents',
    body: AgentTraceChatReq,
    response: AgentTraceChatRes,
    errors: [400, 404],
  }),
  agentConversationChat: defineRoute({
    access: 'read',
    id: 'agents_conversation_chat',
    method: 'POST',
    path: '/agents/conversations/chat',
    tag,
    summary: 'A conversation as a chat, a page of turns (offset counts back from the most recent)',
    body: AgentConversationChatReq,
    response: AgentConversationChatRes,
    errors: [400],
  }),
} as const satisfies Record<string, RouteSpec>;

export const agentsRoutes = {
  ...rollupRoutes,
  ...spanRoutes,
  ...chatRoutes,
  ...searchRoutes,
  ...statsRoutes,
  ...historyRoutes,
} as const satisfies Record<string, RouteSpec>;
