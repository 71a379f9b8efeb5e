// /agents/search (api/agents-search.ts): the store's page of message hits, grouped by
// conversation in the order of their newest hit, each group with the conversation's name, its
// agent and its last activity (from the conversation's spans; for hits outside any
// conversation, their newest hit). Offset and limit count message hits, as in Weave.
import type { Static } from 'typebox';
import { NO_CONVERSATION, SEARCH_LIMIT, SEARCH_PREVIEW_CHARS, type AgentSearchReq } from '../../api/agents-search.js';
import { compileQuery } from '../../query/compile-query.js';
import { parseSearchTerms } from '../../query/search-terms.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { SpanSearchHit, SpanStore } from '../../storage/spans/span-store.js';
import { formatTimestamp, parseTimestamp } from '../../time.js';

type Req = Static<typeof AgentSearchReq>;
const orNull = (v: string | null | undefined) => (v === undefined || v === null ? null : v);
/** The first characters (code points) of a text. */
const head = (s: string, n: number) => (s.length <= n ? s : [...s.slice(0, 2 * n)].slice(0, n).join(''));

/** Name, agent (the one with the most spans in it) and last activity of each conversation, by id. */
async function conversationsMeta(spans: SpanStore, projectId: string, ids: readonly string[]) {
  const meta = new Map<string, { name: string; agent: string; last: number }>();
  if (ids.length === 0) return meta;
  const where = compileQuery(
    { $expr: { $in: [{ $getField: 'conversation_id' }, ids.map((id) => ({ $literal: id }))] } },
    spanFieldCatalog,
  );
  const conversation = { alias: 'conversation_id', field: spanFieldCatalog.resolve('conversation_id') };
  const page = { projectId, where, startedAfter: null, startedBefore: null, offset: 0 };
  const [byConversation, byAgent] = await Promise.all([
    spans.groups({ ...page, keys: [conversation], sort: [], limit: ids.length }),
    spans.groups({
      ...page,
      keys: [conversation, { alias: 'agent', field: spanFieldCatalog.resolve('owner_agent_name') }],
      sort: [{ name: 'span_count', direction: 'desc' }],
      limit: ids.length * 20,
    }),
  ]);
  const agents = new Map<string, string>();
  for (const r of byAgent.rows) {
    const id = String(r.keys.conversation_id);
    if (!agents.has(id) && typeof r.keys.agent === 'string' && r.keys.agent !== '') agents.set(id, r.keys.agent);
  }
  const first = (list: readonly (string | null)[]) => list.find((v) => typeof v === 'string' && v !== '') ?? '';
  for (const r of byConversation.rows) {
    const id = String(r.keys.conversation_id);
    meta.set(id, {
      name: first(r.lists.conversation_names),
      agent: agents.get(id) ?? first(r.lists.agent_names),
      last: r.sums.last_seen,
    });
  }
  return meta;
}

export async function searchMessages(spans: SpanStore, req: Req) {
  const terms = parseSearchTerms(req.query ?? '');
  const { hits, conversations } = await spans.search({
    projectId: req.project_id,
    terms,
    roles: req.roles ?? null,
    traceId: orNull(req.trace_id),
    conversationId: orNull(req.conversation_id),
    agentName: orNull(req.agent_name),
    providerName: orNull(req.provider_name),
    requestModel: orNull(req.request_model),
    startedAfter: req.started_after ? parseTimestamp(req.started_after, 'started_after') : null,
    startedBefore: req.started_before ? parseTimestamp(req.started_before, 'started_before') : null,
    limit: req.limit ?? SEARCH_LIMIT.default,
    offset: req.offset ?? 0,
  });
  const truncate = req.truncate_content ?? true;
  const groups = new Map<string, SpanSearchHit[]>();
  for (const h of hits) {
    const id = h.conversation_id ?? NO_CONVERSATION;
    groups.set(id, [...(groups.get(id) ?? []), h]);
  }
  const meta = await conversationsMeta(
    spans,
    req.project_id,
    [...groups.keys()].filter((id) => id !== NO_CONVERSATION),
  );
  const results = [...groups].map(([id, list]) => {
    const m = meta.get(id);
    return {
      conversation_id: id,
      conversation_name: m?.name ?? '',
      agent_name: m?.agent ?? '',
      matched_messages: list.map((h) => ({
        span_id: h.span_id,
        trace_id: h.trace_id,
        role: h.role,
        content_preview: truncate ? head(h.content, SEARCH_PREVIEW_CHARS) : h.content,
        content_digest: h.digest,
        started_at: formatTimestamp(h.started_at),
      })),
      last_activity: formatTimestamp(Math.max(m?.last ?? 0, ...list.map((h) => h.started_at))),
    };
  });
  return { results, total_conversations: conversations };
}
