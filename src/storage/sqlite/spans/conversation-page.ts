// The conversations page on SQLite: spans grouped by conversation, latest activity first, with
// no filter but the time bounds (and, as the Agents view asks, spans outside any conversation
// left out). Grouping every span of a project to show 50 conversations took
// 8 s over 1M spans; here the page's conversations come from walking the activity index newest
// first (migration 15: a conversation's first row met is its latest), their figures from the
// general grouped read restricted to them, and the count of conversations from the table of
// them (migration 19) or, within time bounds, covering indexes (docs/performance.md "Agents").
// Any other filter is left to the general read.
import type { SpanGroupRow, SpanGroupsQuery } from '../../spans/span-store.js';
import { among, inConversations, isConversationPage } from '../../spans/conversation-page.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { spanWhere } from './span-groups.js';

const WALK_CHUNK = 1024;
type Groups = (q: SpanGroupsQuery) => Promise<{ rows: SpanGroupRow[]; total: number }>;
type Walked = { readonly c: string | null; readonly last: number };

/** The project and the time bounds (the page has no other filter, so no field is printed). */
const bounds = (q: SpanGroupsQuery) =>
  spanWhere({ ...q, where: null }, () => {
    throw new Error('the conversations page prints no field');
  });

export function createSqliteConversationPage(reads: ReadThreads, groups: Groups) {
  /** The page's conversations: the first `offset + limit` met walking activity newest first, ties by id. */
  async function pageKeys(q: SpanGroupsQuery): Promise<(string | null)[]> {
    const want = q.offset + q.limit;
    const b = bounds(q);
    const named = inConversations(q.where);
    const latest = new Map<string | null, number>();
    let boundary: number | null = null;
    walk: for await (const chunk of reads.stream<Walked>(
      `SELECT s.conversation_id AS c, coalesce(s.ended_at, s.started_at) AS last FROM spans AS s INDEXED BY spans_activity
       WHERE ${b.sql} ORDER BY coalesce(s.ended_at, s.started_at) DESC`,
      b.params,
      WALK_CHUNK,
    )) {
      for (const r of chunk) {
        if (r.c === null && named) continue;
        // Past the page's last activity nothing can join the page any more (ties are read on).
        if (boundary !== null && r.last < boundary) break walk;
        if (latest.has(r.c)) continue;
        latest.set(r.c, r.last);
        if (latest.size === want) boundary = r.last;
      }
    }
    // The general read's order: latest activity, then the key ascending (NULL first, as SQLite sorts).
    const byId = (a: string | null, b: string | null) =>
      a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
    return [...latest]
      .sort(([a, x], [b, y]) => y - x || byId(a, b))
      .slice(q.offset, want)
      .map(([c]) => c);
  }

  /**
   * Conversations in the bounds, plus one for spans outside any. Without bounds they are the
   * project's rows of span_conversations (migration 19); within bounds, the covering indexes.
   */
  async function count(q: SpanGroupsQuery): Promise<number> {
    const b = bounds(q);
    const all = q.startedAfter === null && q.startedBefore === null;
    const conversations = all
      ? { sql: 'SELECT count(*) FROM span_conversations WHERE project_id = ?', params: [q.projectId] }
      : {
          sql: `SELECT count(DISTINCT s.conversation_id) FROM spans AS s INDEXED BY spans_conversation
                WHERE ${b.sql} AND s.conversation_id IS NOT NULL`,
          params: b.params,
        };
    const [row] = await reads.all<{ n: number; none: number }>(
      `SELECT (${conversations.sql}) AS n,
              EXISTS (SELECT 1 FROM spans AS s INDEXED BY spans_no_conversation
                WHERE ${b.sql} AND s.conversation_id IS NULL) AS none`,
      [...conversations.params, ...b.params],
    );
    return (row?.n ?? 0) + (inConversations(q.where) ? 0 : (row?.none ?? 0));
  }

  /** The page when the query is the conversations page, else null. */
  return async (q: SpanGroupsQuery): Promise<{ rows: SpanGroupRow[]; total: number } | null> => {
    if (!isConversationPage(q)) return null;
    const [ids, total] = await Promise.all([pageKeys(q), count(q)]);
    if (ids.length === 0) return { rows: [], total };
    // Restricted to the page's conversations, the general read is fast (spans_conversation).
    const { rows } = await groups({ ...q, where: among(ids), offset: 0, limit: ids.length });
    return { rows, total };
  };
}
