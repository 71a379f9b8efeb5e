// The conversations page: /agents/spans/query grouped by conversation, latest activity first,
// with no filter but the time bounds and, as the Agents view asks, spans outside any
// conversation left out, or those spans left out and any other filter (an agent, a model:
// the Agents view's filtered list). Each engine answers it with its own plan (sqlite/spans and
// clickhouse/spans conversation-page.ts): the page's conversations first, then their figures
// from the general grouped read restricted to them.
import type { Expr, FieldRef } from '../../query/plan.js';
import type { SpanGroupsQuery } from './span-store.js';

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
const CONVERSATION: FieldRef = { kind: 'column', name: 'conversation_id', type: 'string' };

const unset = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

/** `conversation_id IS NOT NULL`, the filter the Agents view lists conversations with. */
export function inConversations(where: Expr | null): boolean {
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
 * The conversations page's parts: whether the spans outside any conversation are left out
 * (`named`) and the filter on the spans beside that (null: none; only with `named`). Null when
 * the query is not the page: one conversation key, latest first, no other option set.
 */
export function conversationPage(q: SpanGroupsQuery): { named: boolean; filter: Expr | null } | null {
  const key = q.keys.length === 1 ? q.keys[0]!.field : null;
  const page =
    key !== null &&
    key.kind === 'column' &&
    key.name === 'conversation_id' &&
    q.sort.every((s) => s.name === 'last_seen' && s.direction === 'desc') &&
    Object.entries(q).every(([k, v]) => PLAIN.has(k) || unset(v));
  if (!page) return null;
  if (q.where === null) return { named: false, filter: null };
  if (inConversations(q.where)) return { named: true, filter: null };
  if (q.where.kind !== 'and') return null;
  const at = q.where.items.findIndex(inConversations);
  const rest = q.where.items.filter((_, i) => i !== at);
  if (at < 0 || rest.length === 0) return null;
  return { named: true, filter: rest.length === 1 ? rest[0]! : { kind: 'and', items: rest } };
}

/** `conversation_id IN (ids)`, or NULL for the spans outside any conversation. */
export function among(ids: readonly (string | null)[]): Expr {
  const field: Expr = { kind: 'field', field: CONVERSATION };
  const named = ids.filter((id): id is string => id !== null);
  const items: Expr[] = [];
  if (named.length > 0)
    items.push({ kind: 'in', left: field, items: named.map((id) => ({ kind: 'literal', value: id })) });
  if (named.length < ids.length) items.push({ kind: 'isNull', input: field });
  return items.length === 1 ? items[0]! : { kind: 'or', items };
}
