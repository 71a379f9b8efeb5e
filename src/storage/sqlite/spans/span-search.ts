// /agents/search on SQLite (storage/spans/span-store.ts SpanSearchQuery): FTS5 finds the project's
// bodies holding every phrase, span_messages their first occurrences (one per conversation,
// migration 21); filters on the span itself (agent, provider, model) read the first
// occurrence's span row by its rowid. Values reach SQL only as
// parameters; the statement's shape depends only on which filters are set.
import { fts5Match } from '../../../query/search-terms.js';
import type { SpanSearchHit, SpanSearchQuery } from '../../spans/span-store.js';
import type { ReadThreads } from '../engine/read-threads.js';

type Params = Record<string, string | number>;

/**
 * The filters as SQL over `m` (span_messages), read from the body index (`walk` false), or
 * over `s` (spans) joined to `m` (`walk` true, the newest-first plans).
 */
function filters(q: SpanSearchQuery, params: Params, walk: boolean): string {
  const parts: string[] = [];
  const add = (sql: string, name: string, value: string | number | null) => {
    if (value === null) return;
    parts.push(sql);
    params[name] = value;
  };
  const t = walk ? 's' : 'm';
  add(`${t}.trace_id = @trace`, 'trace', q.traceId);
  add(`${t}.conversation_id = @conversation`, 'conversation', q.conversationId);
  add(`${t}.started_at >= @after`, 'after', q.startedAfter);
  add(`${t}.started_at < @before`, 'before', q.startedBefore);
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
      walk
        ? span.join(' AND ')
        : `EXISTS (SELECT 1 FROM spans AS s WHERE s.rowid = m.span_rowid AND ${span.join(' AND ')})`,
    );
  return parts.map((p) => ` AND ${p}`).join('');
}

const OCCURRENCE = 'm.conversation_id, m.trace_id, m.span_id, m.ord, m.role, m.started_at, m.body_id';
const NEWEST = 'started_at DESC, span_id DESC, ord';
/** The project's spans newest first (the start index), each with its messages by key. */
const WALK = `SELECT s.conversation_id, s.trace_id, s.span_id, m.ord, m.role, s.started_at, m.body_id
  FROM spans AS s INDEXED BY spans_started CROSS JOIN span_messages AS m ON m.span_rowid = s.rowid
  WHERE s.project_id = @project`;
const WALK_ORDER = 'ORDER BY s.started_at DESC, s.span_id DESC, m.ord';
const MATCHED = 'm.body_id IN (SELECT rowid FROM span_message_fts WHERE span_message_fts MATCH @match)';
/** First occurrences read newest first before a common term's walk gives up for the term-first plan. */
const WALK_MAX_ROWS = 200_000;
const WALK_CHUNK = 512;

type Occurrence = Omit<SpanSearchHit, 'content' | 'digest'> & { readonly ord: number; readonly body_id: number };

/**
 * Two plans for a term's page. Term first: every first occurrence of the matching bodies, read
 * from the covering body index (migration 21), sorted. Newest first: the project's spans by
 * start time (the start index), each span's first occurrences (span_messages_span), kept when
 * their body matches, until the page is full; it wins when the term is common (`invoice` in
 * 178,000 of 1M bodies: ~40 ms against ~1 s), as a page of `want` hits then needs about
 * `want * bodies / matched` rows. Bounded by WALK_MAX_ROWS, after which (filters that rarely
 * hold) the term-first plan answers.
 */
export function createSqliteSpanSearch(reads: ReadThreads) {
  async function termFirst(where: string, params: Params, q: SpanSearchQuery): Promise<Occurrence[]> {
    return reads.all<Occurrence>(
      `SELECT ${OCCURRENCE} FROM span_messages AS m INDEXED BY span_messages_body
       WHERE ${MATCHED} AND m.project_id = @project${where} ORDER BY ${NEWEST} LIMIT @limit OFFSET @offset`,
      [{ ...params, limit: q.limit, offset: q.offset }],
    );
  }

  async function newestFirst(walkWhere: string, params: Params, q: SpanSearchQuery): Promise<Occurrence[] | null> {
    const want = q.offset + q.limit;
    const kept: Occurrence[] = [];
    let read = 0;
    const sql = `${WALK} AND ${MATCHED}${walkWhere} ${WALK_ORDER}`;
    for await (const chunk of reads.stream<Occurrence>(sql, [params], WALK_CHUNK)) {
      kept.push(...chunk);
      if (kept.length >= want) return kept.slice(q.offset, want);
      read += chunk.length;
      if (read >= WALK_MAX_ROWS) return null;
    }
    return kept.slice(q.offset);
  }

  async function page(where: string, walkWhere: string, params: Params, q: SpanSearchQuery): Promise<Occurrence[]> {
    // Without terms: the spans in order (SQLite picks the start, conversation or trace index).
    if (q.terms === null)
      return reads.all<Occurrence>(
        `SELECT s.conversation_id, s.trace_id, s.span_id, m.ord, m.role, s.started_at, m.body_id
         FROM spans AS s CROSS JOIN span_messages AS m ON m.span_rowid = s.rowid
         WHERE s.project_id = @project${walkWhere} ${WALK_ORDER} LIMIT @limit OFFSET @offset`,
        [{ ...params, limit: q.limit, offset: q.offset }],
      );
    // A conversation or a trace holds few occurrences: read them by the term.
    if (q.conversationId === null && q.traceId === null) {
      const [counts] = await reads.all<{ matched: number; bodies: number }>(
        `SELECT (SELECT count(*) FROM span_message_fts WHERE span_message_fts MATCH @match) AS matched,
           (SELECT coalesce(max(id), 0) FROM span_message_bodies) AS bodies`,
        [{ match: params.match! }],
      );
      const matched = counts?.matched ?? 0;
      if (matched > 0 && matched * matched >= (q.offset + q.limit) * (counts?.bodies ?? 0)) {
        const walked = await newestFirst(walkWhere, params, q);
        if (walked !== null) return walked;
      }
    }
    return termFirst(where, params, q);
  }

  return async (q: SpanSearchQuery): Promise<{ hits: SpanSearchHit[]; conversations: number }> => {
    const params: Params = { project: q.projectId };
    const where = filters(q, params, false);
    const walkWhere = filters(q, params, true);
    if (q.terms !== null) params.match = fts5Match(q.terms);
    const matched = q.terms === null ? '' : ` AND ${MATCHED}`;
    // The page and the count of conversations with a hit run at once, on two reader threads.
    const [occurrences, [count]] = await Promise.all([
      page(where, walkWhere, params, q),
      reads.all<{ n: number }>(
        `SELECT count(DISTINCT coalesce(m.conversation_id, '')) AS n FROM span_messages AS m WHERE m.project_id = @project${matched}${where}`,
        [params],
      ),
    ]);
    const bodies = new Map(
      (
        await reads.all<{ id: number; digest: string; content: string }>(
          'SELECT id, digest, content FROM span_message_bodies WHERE id IN (SELECT value FROM json_each(?))',
          [JSON.stringify([...new Set(occurrences.map((o) => o.body_id))])],
        )
      ).map((b) => [b.id, b]),
    );
    return {
      hits: occurrences.map((o) => ({
        conversation_id: o.conversation_id,
        trace_id: o.trace_id,
        span_id: o.span_id,
        role: o.role,
        digest: bodies.get(o.body_id)!.digest,
        content: bodies.get(o.body_id)!.content,
        started_at: o.started_at,
      })),
      conversations: count?.n ?? 0,
    };
  };
}
