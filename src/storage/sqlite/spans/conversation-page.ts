// The conversations page on SQLite: spans grouped by conversation, latest activity first, with
// no filter but the time bounds (and, as the Agents view asks, spans outside any conversation
// left out). Grouping every span of a project to show 50 conversations took
// 8 s over 1M spans; here the page's conversations come from walking the activity index newest
// first (migration 15: a conversation's first row met is its latest), their figures from the
// general grouped read restricted to them, and the count of conversations from covering indexes
// (docs/performance.md "Agents"). Any other filter is left to the general read.
import type { Expr, FieldRef } from '../../../query/plan.js';
import type { SpanGroupRow, SpanGroupsQuery } from '../../span-store.js';
import type { ReadThreads } from '../engine/read-threads.js';
import { spanWhere } from './span-groups.js';

type Groups = (q: SpanGroupsQuery) => Promise<{ rows: SpanGroupRow[]; total: number }>;
type Walked = { readonly c: string | null; readonly last: number };

/** Fields of SpanGroupsQuery this plan answers; any other set to a value sends the query elsewhere. */
const PLAIN = new Set([
  'projectId',
  'where',
  'startedAfter',
  'startedBefore',
  'keys',
  'sort',
  'measures',
  'limit',
  'offset',
]);
const WALK_CHUNK = 1024;
const CONVERSATION: FieldRef = { kind: 'column', name: 'conversation_id', type: 'string' };

const unset = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

/** `conversation_id IS NOT NULL`, the filter the Agents view lists conversations with. */
function inConversations(where: Expr | null): boolean {
  return (
    where !== null &&
    where.kind === 'not' &&
    where.item.kind === 'isNull' &&
    where.item.input.kind === 'field' &&
    where.item.input.field.kind === 'column' &&
    where.item.input.field.name === 'conversation_id'
  );
}

/**
 * Whether the query is the conversations page: one conversation key, latest first, no filter
 * but the time bounds and, optionally, leaving out the spans outside any conversation.
 */
export function isConversationPage(q: SpanGroupsQuery): boolean {
  const key = q.keys.length === 1 ? q.keys[0]!.field : null;
  return (
    key !== null &&
    key.kind === 'column' &&
    key.name === 'conversation_id' &&
    (q.where === null || inConversations(q.where)) &&
    q.sort.every((s) => s.name === 'last_seen' && s.direction === 'desc') &&
    Object.entries(q).every(([k, v]) => PLAIN.has(k) || unset(v))
  );
}

/** The project and the time bounds (the page has no other filter, so no field is printed). */
const bounds = (q: SpanGroupsQuery) =>
  spanWhere({ ...q, where: null }, () => {
    throw new Error('the conversations page prints no field');
  });

/** `conversation_id IN (ids)`, or NULL for the spans outside any conversation. */
function among(ids: readonly (string | null)[]): Expr {
  const field: Expr = { kind: 'field', field: CONVERSATION };
  const named = ids.filter((id): id is string => id !== null);
  const items: Expr[] = [];
  if (named.length > 0)
    items.push({ kind: 'in', left: field, items: named.map((id) => ({ kind: 'literal', value: id })) });
  if (named.length < ids.length) items.push({ kind: 'isNull', input: field });
  return items.length === 1 ? items[0]! : { kind: 'or', items };
}

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

  /** Conversations in the bounds, plus one for spans outside any: both from covering indexes. */
  async function count(q: SpanGroupsQuery): Promise<number> {
    const b = bounds(q);
    const [row] = await reads.all<{ n: number; none: number }>(
      `SELECT (SELECT count(DISTINCT s.conversation_id) FROM spans AS s INDEXED BY spans_conversation
                WHERE ${b.sql} AND s.conversation_id IS NOT NULL) AS n,
              EXISTS (SELECT 1 FROM spans AS s INDEXED BY spans_no_conversation
                WHERE ${b.sql} AND s.conversation_id IS NULL) AS none`,
      [...b.params, ...b.params],
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
