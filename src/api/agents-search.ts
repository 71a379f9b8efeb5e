// /agents/search: words and "quoted phrases" over the messages of agent spans (the language is
// query/search-terms.ts), answered as Weave's AgentSearchRes: the page's message hits grouped
// by conversation. An empty query lists the messages of the filtered spans, newest first.
import { Type } from 'typebox';
import { DateTime, Nullable, ProjectId, SafeInteger, Strict } from './common.js';
import { List } from './limits.js';
import { defineRoute, type RouteSpec } from './route-spec.js';

/** Weave's DEFAULT_SEARCH_LIMIT and MAX_SEARCH_LIMIT (message hits per page). */
export const SEARCH_LIMIT = { default: 20, max: 1000 } as const;
/** Weave's SEARCH_CONTENT_PREVIEW_CHARS. */
export const SEARCH_PREVIEW_CHARS = 500;
/** Weave's NO_CONVERSATION_LABEL: the conversation_id of hits in spans without one. */
export const NO_CONVERSATION = '__NO_CONVERSATION__';

const Name = Type.Optional(Nullable(Type.String({ maxLength: 1000 })));

export const AgentSearchReq = Strict({
  project_id: ProjectId,
  query: Type.Optional(Type.String({ maxLength: 10_000 })),
  trace_id: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  roles: Type.Optional(Nullable(List(Type.String({ maxLength: 100 }), 20))),
  conversation_id: Name,
  agent_name: Name,
  provider_name: Name,
  request_model: Name,
  truncate_content: Type.Optional(Type.Boolean()),
  started_after: Type.Optional(Nullable(DateTime)),
  started_before: Type.Optional(Nullable(DateTime)),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: SEARCH_LIMIT.max })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});

export const AgentSearchMatchedMessage = Type.Object({
  span_id: Type.String(),
  trace_id: Type.String(),
  role: Type.String(),
  content_preview: Type.String(),
  content_digest: Type.String(),
  started_at: DateTime,
});

export const AgentSearchRes = Type.Object({
  results: Type.Array(
    Type.Object({
      conversation_id: Type.String(),
      conversation_name: Type.String(),
      agent_name: Type.String(),
      matched_messages: Type.Array(AgentSearchMatchedMessage),
      last_activity: DateTime,
    }),
  ),
  total_conversations: SafeInteger(),
});

export const searchRoutes = {
  agentSearch: defineRoute({
    access: 'read',
    id: 'agents_search',
    method: 'POST',
    path: '/agents/search',
    tag: 'Agents',
    summary:
      'Search the messages of agent spans: whole words in any order and "quoted phrases", case-insensitive; ' +
      'a page of message hits grouped by conversation',
    body: AgentSearchReq,
    response: AgentSearchRes,
    errors: [400],
  }),
} as const satisfies Record<string, RouteSpec>;
