// What Weft settles over the whole trace on every write of one of its spans, the same on every
// engine (each gives it every span of the traces a write touches, stored and new, and stores
// what changed). A child may arrive before its parent, so nothing here is decided per span.
//
//  - The owner: the agent of the nearest invocation ancestor-or-self. An invocation is an
//    `invoke_agent` span, or a multi-agent orchestrator's run (`invoke_swarm`,
//    `invoke_workflow`), named by its agent id (Strands names every Swarm "swarm" and tells
//    them apart by id), else its agent name.
//  - Orchestrators: an orchestrator's run, or an `invoke_agent` span with agents invoked under
//    it and no model call of its own (OpenAI Agents' workflow span over its agents). Counted
//    per agent (orchestration_count), which makes the agent's kind.
//  - Tokens counted once: an invocation or an `execute_node` span whose subtree reports tokens
//    repeats its children's sum (Strands, ADK) and is not counted (tokens_counted = 0).
//  - The turn's conversation: the root's conversation id, else the first (by start) that a
//    span of the trace names; a span sent without one takes it, marked as inherited so a later
//    write of the trace settles it again.
import { TOKEN_COLUMNS } from './span-rollups.js';
import { AGGREGATING, MODEL_CALLS, ORCHESTRATION_OPERATIONS } from './span-operations.js';

export interface SettleSpan {
  readonly span_id: string;
  readonly parent_span_id: string | null;
  readonly operation_name: string | null;
  readonly agent_id: string | null;
  readonly agent_name: string | null;
  readonly agent_version: string | null;
  readonly conversation_id: string | null;
  /** 1 when conversation_id was inherited from the turn by an earlier settlement. */
  readonly conversation_inherited: number | null;
  readonly started_at: number;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly reasoning_tokens: number | null;
  readonly cache_creation_input_tokens: number | null;
  readonly cache_read_input_tokens: number | null;
}

export interface SpanSettlement {
  readonly owner_agent_name: string | null;
  readonly owner_agent_version: string | null;
  readonly tokens_counted: 0 | 1;
  readonly conversation_id: string | null;
  readonly conversation_inherited: 0 | 1;
}

export interface TraceSettlement {
  readonly spans: Map<string, SpanSettlement>;
  /** The span ids of the orchestrator invocations. */
  readonly orchestrators: ReadonlySet<string>;
}

/** Deeper than this a walk stops (a cycle of parent ids sent by a broken exporter ends there too). */
const MAX_DEPTH = 200;

/** The agent an invocation span names: an orchestrator's run by its id first, an agent by its name. */
function invokedAgent(s: SettleSpan): string | null {
  if (s.operation_name !== null && ORCHESTRATION_OPERATIONS.has(s.operation_name)) return s.agent_id ?? s.agent_name;
  return s.operation_name === 'invoke_agent' ? s.agent_name : null;
}

const hasTokens = (s: SettleSpan) => TOKEN_COLUMNS.some((k) => (s[k] ?? 0) !== 0);
const ownConversation = (s: SettleSpan) => (s.conversation_inherited === 1 ? null : s.conversation_id);

export function settleTrace(spans: readonly SettleSpan[]): TraceSettlement {
  const byId = new Map(spans.map((s) => [s.span_id, s]));
  const children = new Map<string, SettleSpan[]>();
  for (const s of spans) {
    if (s.parent_span_id === null || !byId.has(s.parent_span_id)) continue;
    const list = children.get(s.parent_span_id);
    if (list === undefined) children.set(s.parent_span_id, [s]);
    else list.push(s);
  }

  // The invocation span each span belongs to (itself when it is one).
  const invocationOf = new Map<string, SettleSpan | null>();
  const findInvocation = (s: SettleSpan, depth: number): SettleSpan | null => {
    const known = invocationOf.get(s.span_id);
    if (known !== undefined) return known;
    let found: SettleSpan | null;
    if (invokedAgent(s) !== null) found = s;
    else {
      const parent = s.parent_span_id === null ? undefined : byId.get(s.parent_span_id);
      found = parent === undefined || depth >= MAX_DEPTH ? null : findInvocation(parent, depth + 1);
    }
    invocationOf.set(s.span_id, found);
    return found;
  };
  for (const s of spans) findInvocation(s, 0);

  // Whether some span below `s` passes `test`, each span's answer kept: one pass over the trace.
  const below = (test: (c: SettleSpan) => boolean) => {
    const known = new Map<string, boolean>();
    const has = (s: SettleSpan, depth: number): boolean => {
      const k = known.get(s.span_id);
      if (k !== undefined) return k;
      known.set(s.span_id, false); // a cycle of parent ids ends here
      const v = depth < MAX_DEPTH && (children.get(s.span_id) ?? []).some((c) => test(c) || has(c, depth + 1));
      known.set(s.span_id, v);
      return v;
    };
    return (s: SettleSpan) => has(s, 0);
  };
  const invokesBelow = below((c) => invokedAgent(c) !== null);
  const tokensBelow = below(hasTokens);

  const orchestrators = new Set<string>();
  const ownsModelCall = new Set<string>();
  for (const s of spans)
    if (s.operation_name !== null && MODEL_CALLS.has(s.operation_name)) {
      const inv = invocationOf.get(s.span_id);
      if (inv) ownsModelCall.add(inv.span_id);
    }
  for (const s of spans) {
    if (invokedAgent(s) === null) continue;
    const orchestrating = ORCHESTRATION_OPERATIONS.has(s.operation_name!);
    if (orchestrating || (!ownsModelCall.has(s.span_id) && invokesBelow(s))) orchestrators.add(s.span_id);
  }

  const roots = spans
    .filter((s) => s.parent_span_id === null || !byId.has(s.parent_span_id))
    .sort((a, b) => a.started_at - b.started_at || a.span_id.localeCompare(b.span_id));
  const named = spans
    .filter((s) => ownConversation(s) !== null)
    .sort((a, b) => a.started_at - b.started_at || a.span_id.localeCompare(b.span_id));
  const turnConversation = (roots[0] && ownConversation(roots[0])) ?? (named[0] && ownConversation(named[0])) ?? null;

  const out = new Map<string, SpanSettlement>();
  for (const s of spans) {
    const inv = invocationOf.get(s.span_id) ?? null;
    const own = ownConversation(s);
    const counted = s.operation_name !== null && AGGREGATING.has(s.operation_name) && tokensBelow(s) ? 0 : 1;
    out.set(s.span_id, {
      owner_agent_name: inv === null ? null : invokedAgent(inv),
      owner_agent_version: inv === null ? null : inv.agent_version,
      tokens_counted: counted,
      conversation_id: own ?? turnConversation,
      conversation_inherited: own === null && turnConversation !== null ? 1 : 0,
    });
  }
  return { spans: out, orchestrators };
}

/** Whether a stored span differs from its settlement. */
export function unsettled(s: Partial<Record<keyof SpanSettlement, unknown>>, settled: SpanSettlement): boolean {
  return (Object.keys(settled) as (keyof SpanSettlement)[]).some((k) => (s[k] ?? null) !== settled[k]);
}
