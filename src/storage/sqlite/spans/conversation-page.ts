// The conversations page on SQLite: spans grouped by conversation, latest activity first, with
// no filter but the time bounds (and, as the Agents view asks, spans outside any conversation
// left out), or with a filter beside it (an agent). Grouping every span of a project to show 50
// conversations took 8 s over 1M spans (3.2-3.9 s for the busiest agent's); here the page's
// conversations come from walking the activity index newest first (migration 15: a
// conversation's first row met is its latest), each row checked against the filter, their
// figures from the general grouped read restricted to them, and the count of conversations from
// the table of them (migration 19), covering indexes within time bounds, or, filtered, from
// the matching spans (by agent: the owner index, migration 23; docs/performance.md "Agents").
// A filter that WALK_MAX rows do not fill the page with is left to the general read.
import type { Expr } from '../../../query/plan.js';
import type { SpanGroupRow, SpanGroupsQuery } from '../../spans/span-store.js';
import { among, conversationPage } from '../../spans/conversation-page.js';
import type { FieldPrinter } from '../engine/dialect.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { spanWhere } from './span-groups.js';

const WALK_CHUNK = 1024;
/** Rows of the activity index a filtered page reads before it leaves the page to the general read. */
const WALK_MAX = 100_000;
type Groups = (q: SpanGroupsQuery) => Promise<{ rows: SpanGroupRow[]; total: number }>;
type Walked = { readonly c: string | null; readonly last: number; readonly hit: number | null };
type Parts = { readonly named: boolean; readonly filter: Expr | null };

/** The project and the time bounds. */
const bounds = (q: SpanGroupsQuery) =>
  spanWhere({ ...q, where: null }, () => {
    throw new Error('the time bounds print no field');
  });

export function createSqliteConversationPage(reads: ReadThreads, groups: Groups, printField: FieldPrinter) {
  /**
   * The page's conversations: the first `offset + limit` met walking activity newest first, ties
   * by id, among the rows the filter holds for; null when WALK_MAX rows did not settle the page.
   */
  async function pageKeys(q: SpanGroupsQuery, { named, filter }: Parts): Promise<(string | null)[] | null> {
    const want = q.offset + q.limit;
    const b = bounds(q);
    const hit = filter === null ? { sql: '1', params: [] } : spanWhere({ ...q, where: filter }, printField);
    const latest = new Map<string | null, number>();
    let boundary: number | null = null;
    let walked = 0;
    let settled = false;
    walk: for await (const chunk of reads.stream<Walked>(
      `SELECT s.conversation_id AS c, coalesce(s.ended_at, s.started_at) AS last, (${hit.sql}) AS hit
       FROM spans AS s INDEXED BY spans_activity
       WHERE ${b.sql}${named ? ' AND s.conversation_id IS NOT NULL' : ''} ORDER BY coalesce(s.ended_at, s.started_at) DESC`,
      [...hit.params, ...b.params],
      WALK_CHUNK,
    )) {
      for (const r of chunk) {
        // Past the page's last activity nothing can join the page any more (ties are read on).
        if (boundary !== null && r.last < boundary) {
          settled = true;
          break walk;
        }
        if (filter !== null && ++walked > WALK_MAX) break walk;
        if (r.hit !== 1 || latest.has(r.c)) continue;
        latest.set(r.c, r.last);
        if (latest.size === want) boundary = r.last;
      }
    }
    // The walk ended by itself: every row in the bounds was read.
    if (!settled && walked <= WALK_MAX) settled = true;
    if (!settled) return null;
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
  async function count(q: SpanGroupsQuery, { named, filter }: Parts): Promise<number> {
    if (filter !== null) {
      const f = spanWhere({ ...q, where: filter }, printField);
      const [row] = await reads.all<{ n: number }>(
        `SELECT count(DISTINCT s.conversation_id) AS n FROM spans AS s WHERE ${f.sql} AND s.conversation_id IS NOT NULL`,
        f.params,
      );
      return row?.n ?? 0;
    }
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
    return (row?.n ?? 0) + (named ? 0 : (row?.none ?? 0));
  }

  /** The page when the query is the conversations page (and the walk settles it), else null. */
  return async (q: SpanGroupsQuery): Promise<{ rows: SpanGroupRow[]; total: number } | null> => {
    const parts = conversationPage(q);
    if (parts === null) return null;
    // Unfiltered, the walk always settles the page: the count runs beside it, on another reader.
    const [ids, known] = await Promise.all([pageKeys(q, parts), parts.filter === null ? count(q, parts) : null]);
    if (ids === null) return null;
    const total = known ?? (await count(q, parts));
    if (ids.length === 0) return { rows: [], total };
    // Restricted to the page's conversations, the general read is fast (spans_conversation).
    const where = parts.filter === null ? among(ids) : { kind: 'and' as const, items: [parts.filter, among(ids)] };
    const { rows } = await groups({ ...q, where, offset: 0, limit: ids.length });
    return { rows, total };
  };
}
