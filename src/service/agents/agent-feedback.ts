// Feedback on agent data (agents.md §1.3, §4.6, §5.1): the three targets are a turn
// (agent_turn/<trace_id>), a step (agent_span/<span_id>) and a conversation
// (agent_conversation/<conversation_id>). On write, agent refs are stored in Weave's canonical
// form (the form Weft builds to find them again) and a turn's feedback gets the span_* columns
// of the turn's root span; on read, feedback is grouped by target and projected as Weave's
// AgentChatFeedback, or as the conversation list's markers.
import type { Static } from 'typebox';
import {
  AGENT_SPAN_FEEDBACK_TYPES,
  type AgentChatFeedback,
  type AgentConversationSpanFeedback,
} from '../../api/agent-feedback.js';
import type { Expr } from '../../query/plan.js';
import type { SpanColumn, SpanRow } from '../../query/span-columns.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { FeedbackRow, FeedbackStore } from '../../storage/feedback/feedback-store.js';
import type { SpanStore } from '../../storage/spans/span-store.js';
import { formatTimestamp } from '../../time.js';
import { analyzeReactionEmoji } from '../feedback/feedback-emoji.js';
import { agentRefUri, refUri, tryParseRef, type AgentRef } from '../refs/refs.js';
import { turnRoot } from './chat-view.js';

type ChatFeedback = Static<typeof AgentChatFeedback>;
type SpanMarker = Static<typeof AgentConversationSpanFeedback>;

/** The agent target a stored weave_ref names, null for any other ref. */
function agentTarget(weaveRef: string): AgentRef | null {
  const ref = tryParseRef(weaveRef);
  return ref !== null && (ref.kind === 'agent_turn' || ref.kind === 'agent_span' || ref.kind === 'agent_conversation')
    ? ref
    : null;
}

// ---------------------------------------------------------------------------------------------
// Write side: canonical refs and the span_* columns of a turn's feedback.

const ROOT_COLUMNS: readonly SpanColumn[] = [
  'trace_id',
  'span_id',
  'parent_span_id',
  'started_at',
  'ended_at',
  'agent_name',
  'agent_version',
  'owner_agent_name',
  'owner_agent_version',
  'status_code',
  'conversation_id',
];
/** More root candidates than any real trace has parentless spans. */
const MAX_ROOT_CANDIDATES = 10_000;

const field = (name: string): Expr => ({ kind: 'field', field: spanFieldCatalog.resolve(name) });
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The root span of each trace (chat-view's rule), light columns only; absent traces are left out. */
async function turnRoots(spans: SpanStore, projectId: string, traceIds: readonly string[]) {
  const read = async (ids: readonly string[], parentless: boolean) => {
    const inTraces: Expr = {
      kind: 'in',
      left: field('trace_id'),
      items: ids.map((v) => ({ kind: 'literal', value: v })),
    };
    const { rows } = await spans.query({
      projectId,
      where: parentless
        ? { kind: 'and', items: [inTraces, { kind: 'isNull', input: field('parent_span_id') }] }
        : inTraces,
      // By trace: the primary key answers it (no sort means started_at desc, a walk of the project).
      sort: [{ field: spanFieldCatalog.resolve('trace_id'), direction: 'asc' }],
      limit: MAX_ROOT_CANDIDATES,
      offset: 0,
      startedAfter: null,
      startedBefore: null,
      columns: ROOT_COLUMNS,
    });
    const byTrace = new Map<string, SpanRow[]>();
    for (const r of rows) byTrace.set(String(r.trace_id), [...(byTrace.get(String(r.trace_id)) ?? []), r]);
    return byTrace;
  };
  const candidates = await read(traceIds, true);
  // A trace whose every span has a parent (its root never arrived): the latest span to end.
  const orphaned = traceIds.filter((id) => !candidates.has(id));
  if (orphaned.length > 0) for (const [id, rows] of await read(orphaned, false)) candidates.set(id, rows);
  const roots = new Map<string, SpanRow>();
  for (const [id, rows] of candidates) {
    const root = turnRoot(rows);
    if (root !== undefined) roots.set(id, root);
  }
  return roots;
}

/** The row with span_* filled from the turn's root where the client left the default. */
function withRoot(row: FeedbackRow, traceId: string, root: SpanRow | undefined): FeedbackRow {
  const agentName = root === undefined ? null : (str(root.agent_name) ?? str(root.owner_agent_name));
  const agentVersion = root === undefined ? null : (str(root.agent_version) ?? str(root.owner_agent_version));
  return {
    ...row,
    span_trace_id: row.span_trace_id || traceId,
    span_agent_name: row.span_agent_name || agentName || '',
    span_agent_version: row.span_agent_version || agentVersion || '',
    span_status_code:
      row.span_status_code === '' || row.span_status_code === 'UNSET'
        ? (str(root?.status_code) ?? row.span_status_code)
        : row.span_status_code,
    span_conversation_id: row.span_conversation_id || (str(root?.conversation_id) ?? ''),
  };
}

/**
 * Prepares validated feedback rows on agent refs for storage: the weave_ref in canonical form;
 * on a turn, span_trace_id, span_agent_name, span_agent_version, span_status_code and
 * span_conversation_id from the turn's root span, each only where the client sent the default
 * ('' / UNSET), so a scorer's own values win; on a conversation, span_conversation_id. A turn
 * not stored yet (feedback may arrive before its spans) keeps the defaults. Other rows pass as
 * they are.
 */
export function createAgentFeedbackEnricher(spans: SpanStore) {
  return async (rows: readonly FeedbackRow[]): Promise<FeedbackRow[]> => {
    const targets = rows.map((r) => agentTarget(r.weave_ref));
    const turnsByProject = new Map<string, Set<string>>();
    for (const t of targets)
      if (t?.kind === 'agent_turn')
        turnsByProject.set(t.projectId, (turnsByProject.get(t.projectId) ?? new Set()).add(t.id));
    const roots = new Map<string, Map<string, SpanRow>>();
    for (const [projectId, ids] of turnsByProject) roots.set(projectId, await turnRoots(spans, projectId, [...ids]));
    return rows.map((row, i) => {
      const t = targets[i];
      if (t === null || t === undefined) return row;
      const canonical = { ...row, weave_ref: refUri(t) };
      if (t.kind === 'agent_turn') return withRoot(canonical, t.id, roots.get(t.projectId)?.get(t.id));
      if (t.kind === 'agent_conversation')
        return { ...canonical, span_conversation_id: row.span_conversation_id || t.id };
      return canonical;
    });
  };
}

// ---------------------------------------------------------------------------------------------
// Read side.

/** Feedback on agent targets of one project, by target id, each list in insertion order. */
export interface AgentFeedbackByTarget {
  readonly byTrace: ReadonlyMap<string, FeedbackRow[]>;
  readonly bySpan: ReadonlyMap<string, FeedbackRow[]>;
  readonly byConversation: ReadonlyMap<string, FeedbackRow[]>;
}

/** Every feedback row on these turns, steps and conversations of the project. */
export async function agentFeedback(
  store: FeedbackStore,
  projectId: string,
  targets: { traceIds?: readonly string[]; spanIds?: readonly string[]; conversationIds?: readonly string[] },
): Promise<AgentFeedbackByTarget> {
  const refs = [
    ...(targets.traceIds ?? []).map((id) => agentRefUri(projectId, 'agent_turn', id)),
    ...(targets.spanIds ?? []).map((id) => agentRefUri(projectId, 'agent_span', id)),
    ...(targets.conversationIds ?? []).map((id) => agentRefUri(projectId, 'agent_conversation', id)),
  ];
  const out = { byTrace: new Map(), bySpan: new Map(), byConversation: new Map() } satisfies AgentFeedbackByTarget;
  if (refs.length === 0) return out;
  for (const row of await store.findByWeaveRefs(projectId, refs)) {
    const t = agentTarget(row.weave_ref);
    if (t === null) continue;
    const map = t.kind === 'agent_turn' ? out.byTrace : t.kind === 'agent_span' ? out.bySpan : out.byConversation;
    map.set(t.id, [...(map.get(t.id) ?? []), row]);
  }
  return out;
}

/** A feedback row as Weave's AgentChatFeedback: no project_id, no span_* columns. */
export function chatFeedback(row: FeedbackRow): ChatFeedback {
  return {
    id: row.id,
    feedback_type: row.feedback_type,
    weave_ref: row.weave_ref,
    payload: row.payload,
    creator: row.creator,
    created_at: formatTimestamp(row.created_at),
    wb_user_id: row.wb_user_id,
    runnable_ref: row.runnable_ref,
    call_ref: row.call_ref,
    trigger_ref: row.trigger_ref,
    annotation_ref: row.annotation_ref,
    scorer_tags: [...row.scorer_tags],
    scorer_tag_reasons: { ...row.scorer_tag_reasons },
    scorer_tag_confidences: { ...row.scorer_tag_confidences },
    scorer_ratings: { ...row.scorer_ratings },
    scorer_rating_reasons: { ...row.scorer_rating_reasons },
    scorer_rating_confidences: { ...row.scorer_rating_confidences },
  };
}

/** The span ids of a turn's messages (the step-level targets). */
function messageSpanIds(turn: { messages: readonly Record<string, unknown>[] }): string[] {
  return turn.messages.map((m) => m.span_id).filter((id): id is string => typeof id === 'string' && id !== '');
}

/**
 * A turn with its feedback folded in, as Weave folds it: `feedback` on the turn (an empty list
 * when none), and on each message whose span has feedback (left out on the others).
 */
function withTurnFeedback<T extends { trace_id: string; messages: Record<string, unknown>[] }>(
  turn: T,
  fb: AgentFeedbackByTarget,
): T & { feedback: ChatFeedback[] } {
  const messages = turn.messages.map((m) => {
    const rows = typeof m.span_id === 'string' ? fb.bySpan.get(m.span_id) : undefined;
    return rows === undefined ? m : { ...m, feedback: rows.map(chatFeedback) };
  });
  return { ...turn, messages, feedback: (fb.byTrace.get(turn.trace_id) ?? []).map(chatFeedback) };
}

const MARKER_TYPES: ReadonlySet<string> = new Set(AGENT_SPAN_FEEDBACK_TYPES);

/** A tag as the markers show it: a single emoji without its skin tone (Weave's detoned glyph). */
function displayTag(tag: string): string {
  return analyzeReactionEmoji(tag)?.detoned ?? tag;
}

/** One marker per agent user-feedback or agent-monitor row: its tags, and its ratings with their reasons. */
function marker(traceId: string | null, row: FeedbackRow): SpanMarker {
  return {
    trace_id: traceId,
    feedback_type: row.feedback_type as SpanMarker['feedback_type'],
    tags: row.scorer_tags.map(displayTag),
    ratings: Object.entries(row.scorer_ratings).map(([name, value]) => ({
      name,
      value,
      reason: row.scorer_rating_reasons[name] ?? null,
      confidence: row.scorer_rating_confidences[name] ?? null,
    })),
  };
}

/**
 * The markers of one conversation: feedback on the conversation (trace_id null) first, then on
 * each of `traceIds` (the turns its span sequence shows, where the client places them) in that
 * order; only agent user-feedback and agent-monitor rows.
 */
function spanMarkers(conversationId: string, traceIds: readonly string[], fb: AgentFeedbackByTarget): SpanMarker[] {
  const out: SpanMarker[] = [];
  for (const row of fb.byConversation.get(conversationId) ?? [])
    if (MARKER_TYPES.has(row.feedback_type)) out.push(marker(null, row));
  for (const traceId of traceIds)
    for (const row of fb.byTrace.get(traceId) ?? [])
      if (MARKER_TYPES.has(row.feedback_type)) out.push(marker(traceId, row));
  return out;
}

type ChatTurn = { trace_id: string; messages: Record<string, unknown>[] };

/** /agents/traces/chat with include_feedback: the turn's and its steps' feedback folded in. */
export async function turnChatWithFeedback<T extends ChatTurn>(store: FeedbackStore, projectId: string, chat: T) {
  const fb = await agentFeedback(store, projectId, { traceIds: [chat.trace_id], spanIds: messageSpanIds(chat) });
  return withTurnFeedback(chat, fb);
}

/** /agents/conversations/chat with include_feedback: the conversation's feedback, and each turn's. */
export async function conversationChatWithFeedback<
  T extends ChatTurn,
  R extends { conversation_id: string; turns: T[] },
>(store: FeedbackStore, projectId: string, res: R) {
  const fb = await agentFeedback(store, projectId, {
    conversationIds: [res.conversation_id],
    traceIds: res.turns.map((t) => t.trace_id),
    spanIds: res.turns.flatMap(messageSpanIds),
  });
  return {
    ...res,
    turns: res.turns.map((t) => withTurnFeedback(t, fb)),
    feedback: (fb.byConversation.get(res.conversation_id) ?? []).map(chatFeedback),
  };
}

/** The markers of each conversation, given its span sequence (whose turns are the ones marked). */
export async function conversationMarkers(
  store: FeedbackStore,
  projectId: string,
  sequences: ReadonlyMap<string, readonly { readonly trace_id: string }[]>,
): Promise<Map<string, SpanMarker[]>> {
  const turns = new Map([...sequences].map(([id, spans]) => [id, [...new Set(spans.map((s) => s.trace_id))]]));
  const fb = await agentFeedback(store, projectId, {
    conversationIds: [...sequences.keys()],
    traceIds: [...turns.values()].flat(),
  });
  return new Map([...turns].map(([id, traceIds]) => [id, spanMarkers(id, traceIds, fb)]));
}
