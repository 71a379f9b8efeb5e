// /agents/search on SQLite (storage/span-store.ts SpanSearchQuery): FTS5 finds the project's
// bodies holding every phrase, span_messages their occurrences; filters on the span itself
// (agent, provider, model) read the spans row by its key. Values reach SQL only as
// parameters; the statement's shape depends only on which filters are set.
import { fts5Match } from '../../../query/search-terms.js';
import type { SpanSearchHit, SpanSearchQuery } from '../../span-store.js';
import type { ReadThreads } from '../engine/read-threads.js';

type Params = Record<string, string | number>;

function filters(q: SpanSearchQuery, params: Params): string {
  const parts: string[] = [];
  const add = (sql: string, name: string, value: string | number | null) => {
    if (value === null) return;
    parts.push(sql);
    params[name] = value;
  };
  add('m.trace_id = @trace', 'trace', q.traceId);
  add('m.conversation_id = @conversation', 'conversation', q.conversationId);
  add('m.started_at >= @after', 'after', q.startedAfter);
  add('m.started_at < @before', 'before', q.startedBefore);
  if (q.roles !== null) {
    parts.push('m.role IN (SELECT value FROM json_each(@roles))');
    params.roles = JSON.stringify(q.roles);
  }
  const span: string[] = [];
  if (q.agentName !== null) {
    span.push('(s.owner_agent_name = @agent OR s.agent_name = @agent)');
    params.agent = q.agentName;
  }
  if (q.providerName !== null) {
    span.push('s.provider_name = @provider');
    params.provider = q.providerName;
  }
  if (q.requestModel !== null) {
    span.push('s.request_model = @model');
    params.model = q.requestModel;
  }
  if (span.length > 0)
    parts.push(
      `EXISTS (SELECT 1 FROM spans AS s WHERE s.project_id = m.project_id AND s.trace_id = m.trace_id AND s.span_id = m.span_id AND ${span.join(' AND ')})`,
    );
  return parts.map((p) => ` AND ${p}`).join('');
}

const HIT_COLUMNS = 'm.conversation_id, m.trace_id, m.span_id, m.ord, m.role, m.started_at, b.digest, b.id AS body_id';
const NEWEST = 'started_at DESC, span_id DESC, ord';

export function createSqliteSpanSearch(reads: ReadThreads) {
  return async (q: SpanSearchQuery): Promise<{ hits: SpanSearchHit[]; conversations: number }> => {
    const params: Params = { project: q.projectId };
    const where = filters(q, params);
    let hits: string;
    if (q.terms === null) {
      hits = `SELECT ${HIT_COLUMNS} FROM span_messages AS m JOIN span_message_bodies AS b ON b.id = m.body_id WHERE m.project_id = @project${where}`;
    } else {
      params.match = fts5Match(q.terms);
      // One hit per (conversation, else trace; role; body): its newest occurrence.
      hits = `SELECT * FROM (
          SELECT *, row_number() OVER (PARTITION BY coalesce(conversation_id, trace_id), role, body_id ORDER BY ${NEWEST}) AS n
          FROM (
            SELECT ${HIT_COLUMNS} FROM span_message_fts AS f
            JOIN span_message_bodies AS b ON b.id = f.rowid
            JOIN span_messages AS m ON m.body_id = b.id AND m.project_id = b.project_id
            WHERE span_message_fts MATCH @match AND b.project_id = @project${where}
          )
        ) WHERE n = 1`;
    }
    // The page and the count evaluate the same hits: on two reader threads at once.
    const [page, [count]] = await Promise.all([
      reads.all<SpanSearchHit>(
        `WITH hits AS (${hits}), page AS (SELECT * FROM hits ORDER BY ${NEWEST} LIMIT @limit OFFSET @offset)
         SELECT conversation_id, trace_id, span_id, role, digest, started_at,
           (SELECT content FROM span_message_bodies WHERE id = page.body_id) AS content
         FROM page ORDER BY ${NEWEST}`,
        [{ ...params, limit: q.limit, offset: q.offset }],
      ),
      reads.all<{ n: number }>(
        `WITH hits AS (${hits}) SELECT count(DISTINCT coalesce(conversation_id, '')) AS n FROM hits`,
        [params],
      ),
    ]);
    return { hits: page, conversations: count?.n ?? 0 };
  };
}
