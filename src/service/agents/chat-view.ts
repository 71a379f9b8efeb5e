// One turn (a trace) as a chat, the projection behind /agents/traces/chat and each turn of
// /agents/conversations/chat, following Weave's chat view (weave/trace_server/agents/chat_view.py):
//  1. The span tree (orphans become roots), siblings by start time, the longer first on ties,
//     then by id; a tool execution moves right after the model span whose output asked for its
//     tool_call_id; the walk stops at depth 200.
//  2. One user_message first: the last user text of the earliest invoke_agent span that has
//     one, else of any span.
//  3. invoke_agent -> agent_start (when it names an agent), context_compacted (when it carries
//     compaction), then its children; its own output only when nothing under it spoke, with
//     the tokens of its whole subtree.
//  4. execute_tool -> tool_call. 5. Any other span with assistant output -> assistant_message.
//  6. A message's agent: the span's own, else the nearest enclosing agent's.
//  With include_model_tool_calls, each tool call a span's model asked for that no execute_tool
//  span of the trace ran (by call id) is a tool_call too, before the span's own text, once per
//  call id, with no status or duration, at the asking span's end, its result from a later span's
//  input that answers the call id (model-tool-calls.ts).
//  7. The header: the root (the one parentless span, else the latest to end); duration is its
//     wall clock; tokens and cost are sums over every span.
import type { Static } from 'typebox';
import type { AgentTraceChatRes } from '../../api/agents.js';
import type { SpanRow } from '../../query/span-columns.js';
import { TOKEN_COLUMNS } from '../../storage/spans/span-rollups.js';
import { ORCHESTRATION_OPERATIONS } from '../../storage/spans/span-operations.js';
import { structuredAnswer } from './structured-answer.js';
import { formatTimestamp } from '../../time.js';
import { durationMs, sortSiblings } from './chat-order.js';
import { unexecutedRequests } from './model-tool-calls.js';

export interface SpanCost {
  readonly input: number;
  readonly output: number;
  readonly total: number;
}
/** The cost of one span's tokens, null when its model has no price. */
export type SpanPricer = (span: SpanRow) => SpanCost | null;

interface Message {
  readonly role: string;
  readonly content: string;
  readonly finish_reason: string | null;
}

type Obj = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const list = (v: unknown): Message[] => (typeof v === 'string' ? (JSON.parse(v) as Message[]) : []);
const strings = (v: unknown): string[] => (typeof v === 'string' ? (JSON.parse(v) as string[]) : []);
const TOKENS = TOKEN_COLUMNS;
const MAX_DEPTH = 200;

/** The text of a message's content: itself, or the text parts of a parts list (JSON text). */
export function messageText(content: string): string {
  const t = content.trimStart();
  if (t[0] !== '[') return content;
  try {
    const parts = JSON.parse(content) as unknown[];
    if (!Array.isArray(parts)) return content;
    return parts
      .map((p) =>
        typeof p === 'object' && p !== null && (p as Obj).type === 'text' ? String((p as Obj).content ?? '') : '',
      )
      .join('');
  } catch {
    return content;
  }
}

/** Reasoning parts of a message's content, when it is a parts list. */
function reasoningOf(content: string): string {
  if (content.trimStart()[0] !== '[') return '';
  try {
    const parts = JSON.parse(content) as unknown[];
    return Array.isArray(parts)
      ? parts
          .map((p) =>
            typeof p === 'object' && p !== null && (p as Obj).type === 'reasoning'
              ? String((p as Obj).content ?? '')
              : '',
          )
          .join('')
      : '';
  } catch {
    return '';
  }
}

const iso = (us: unknown) => (typeof us === 'number' ? formatTimestamp(us) : null);

/**
 * The span a turn's header (and feedback on the turn) describes: the one parentless span, else
 * the latest to end of the parentless ones, else of all; undefined without spans. Given only
 * the parentless spans of a trace that has some, it picks the same span.
 */
export function turnRoot(spans: readonly SpanRow[]): SpanRow | undefined {
  const parentless = spans.filter((s) => s.parent_span_id === null);
  if (parentless.length === 1) return parentless[0]!;
  return [...(parentless.length > 0 ? parentless : spans)].sort(
    (a, b) => Number(b.ended_at ?? 0) - Number(a.ended_at ?? 0),
  )[0];
}

/** The turn's agent: its root's, an orchestrator's run by the name Weft lists it under (its id). */
const rootAgent = (root: SpanRow): string | null =>
  ORCHESTRATION_OPERATIONS.has(String(root.operation_name))
    ? (str(root.owner_agent_name) ?? str(root.agent_name))
    : (str(root.agent_name) ?? str(root.owner_agent_name));

/** The projection of one trace's spans. */
export function traceChat(
  traceId: string,
  spans: readonly SpanRow[],
  price: SpanPricer,
  opts: { readonly modelToolCalls?: boolean } = {},
): Static<typeof AgentTraceChatRes> {
  const ids = new Set(spans.map((s) => String(s.span_id)));
  const children = new Map<string | null, SpanRow[]>();
  for (const s of spans) {
    const parent = s.parent_span_id !== null && ids.has(String(s.parent_span_id)) ? String(s.parent_span_id) : null;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const callIds = new Set(spans.flatMap((s) => (s.tool_call_id === null ? [] : [String(s.tool_call_id)])));
  for (const [k, v] of children) children.set(k, sortSiblings(v, callIds));
  const messages: Obj[] = [];
  const tokensOf = (s: SpanRow, depth = 0): Record<(typeof TOKENS)[number], number> => {
    const out = Object.fromEntries(TOKENS.map((k) => [k, num(s[k])])) as Record<(typeof TOKENS)[number], number>;
    if (depth < MAX_DEPTH)
      for (const c of children.get(String(s.span_id)) ?? []) {
        const sub = tokensOf(c, depth + 1);
        for (const k of TOKENS) out[k] += sub[k];
      }
    return out;
  };
  const base = (s: SpanRow, agent: { name: string | null; version: string | null }, type: string) => ({
    type,
    span_id: s.span_id,
    agent_name: agent.name,
    agent_version: agent.version,
    status_code: s.status_code,
    error_type: s.status_code === 'ERROR' ? s.error_type : null,
    status_message: s.status_code === 'ERROR' ? s.status_message : null,
    started_at: iso(s.started_at),
  });
  /** An assistant message of `s` saying `text` (its model, tokens and cost from `tokens` and the span). */
  const textMessage = (
    s: SpanRow,
    agent: { name: string | null; version: string | null },
    text: string,
    reasoning: string | null = null,
    tokens: Record<string, number> = {},
  ) => {
    const cost = Object.keys(tokens).length > 0 ? price(s) : null;
    return {
      ...base(s, agent, 'assistant_message'),
      assistant_message: {
        text,
        model: str(s.response_model) ?? str(s.request_model),
        reasoning_content: reasoning,
        reasoning_tokens: tokens.reasoning_tokens || null,
        input_tokens: tokens.input_tokens || null,
        output_tokens: tokens.output_tokens || null,
        input_cost_usd: cost?.input ?? null,
        output_cost_usd: cost?.output ?? null,
        total_cost_usd: cost?.total ?? null,
        duration_ms: durationMs(s),
        status: s.status_code,
        content_refs: strings(s.content_refs),
      },
    };
  };
  const assistant = (
    s: SpanRow,
    agent: { name: string | null; version: string | null },
    tokens: Record<string, number>,
  ) => {
    const out = list(s.output_messages).filter((m) => m.role !== 'user');
    const text = out.map((m) => messageText(m.content)).join('');
    const reasoning = str(s.reasoning_content) ?? (out.map((m) => reasoningOf(m.content)).join('') || null);
    if (text === '' && reasoning === null) return false;
    messages.push(textMessage(s, agent, text, reasoning, tokens));
    return true;
  };

  const asked = opts.modelToolCalls === true ? unexecutedRequests(spans) : () => [];
  const requests = (s: SpanRow, agent: { name: string | null; version: string | null }) => {
    for (const r of asked(s))
      messages.push({
        ...base(s, agent, 'tool_call'),
        status_code: null,
        error_type: null,
        status_message: null,
        started_at: iso(s.ended_at ?? s.started_at),
        tool_call: { ...r, duration_ms: null, status: null, content_refs: [] },
      });
  };

  /** Walks a span and its subtree; returns whether any assistant text was emitted. */
  const walk = (s: SpanRow, enclosing: { name: string | null; version: string | null }, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    const op = s.operation_name;
    const parsedName =
      op === 'invoke_agent' && String(s.span_name).startsWith('invoke_agent ') ? String(s.span_name).slice(13) : null;
    const own = str(s.agent_name) ?? str(s.agent_id) ?? parsedName;
    const agent = own !== null ? { name: own, version: str(s.agent_version) ?? enclosing.version } : enclosing;
    if (op === 'invoke_agent') {
      if (own !== null)
        messages.push({
          ...base(s, agent, 'agent_start'),
          agent_start: {
            model: str(s.request_model) ?? str(s.response_model),
            system_instructions: strings(s.system_instructions).join('\n') || null,
            tool_definitions: str(s.tool_definitions),
            status: s.status_code,
          },
        });
      if (s.compaction_summary !== null || s.compaction_items_before !== null)
        messages.push({
          ...base(s, agent, 'context_compacted'),
          context_compacted: {
            compaction_summary: str(s.compaction_summary),
            compaction_items_before: s.compaction_items_before,
            compaction_items_after: s.compaction_items_after,
          },
        });
      let spoke = false;
      for (const c of children.get(String(s.span_id)) ?? []) spoke = walk(c, agent, depth + 1) || spoke;
      requests(s, agent);
      if (!spoke) spoke = assistant(s, agent, tokensOf(s));
      return spoke;
    }
    if (op === 'execute_tool') {
      const name =
        str(s.tool_name) ??
        (String(s.span_name).startsWith('execute_tool ') ? String(s.span_name).slice(13) : String(s.span_name));
      messages.push({
        ...base(s, agent, 'tool_call'),
        tool_call: {
          tool_name: name,
          tool_arguments: str(s.tool_call_arguments),
          tool_result: str(s.tool_call_result),
          duration_ms: durationMs(s),
          status: s.status_code,
          content_refs: strings(s.content_refs),
        },
      });
      const answer = structuredAnswer(name, str(s.tool_call_arguments));
      if (answer !== null) messages.push(textMessage(s, agent, answer));
      let spoke = answer !== null;
      for (const c of children.get(String(s.span_id)) ?? []) spoke = walk(c, agent, depth + 1) || spoke;
      return spoke;
    }
    requests(s, agent);
    let spoke = assistant(s, agent, Object.fromEntries(TOKENS.map((k) => [k, num(s[k])])));
    for (const c of children.get(String(s.span_id)) ?? []) spoke = walk(c, agent, depth + 1) || spoke;
    return spoke;
  };

  const roots = children.get(null) ?? [];
  for (const r of roots) walk(r, { name: null, version: null }, 0);

  // The user's message first: the last user text of the earliest agent span that has one, else of any span.
  const byStart = [...spans].sort((a, b) => Number(a.started_at) - Number(b.started_at));
  const userText = (s: SpanRow) => {
    const inputs = list(s.input_messages);
    const users = inputs.filter((m) => m.role === 'user');
    const pick = users.length > 0 ? users : inputs.filter((m) => !['assistant', 'system', 'tool'].includes(m.role));
    const last = pick[pick.length - 1];
    return last === undefined ? null : messageText(last.content);
  };
  const asker =
    byStart.find((s) => s.operation_name === 'invoke_agent' && userText(s) !== null) ??
    byStart.find((s) => userText(s) !== null);
  if (asker !== undefined)
    messages.unshift({
      type: 'user_message',
      span_id: asker.span_id,
      agent_name: null,
      agent_version: null,
      status_code: null,
      error_type: null,
      status_message: null,
      started_at: iso(asker.started_at),
      user_message: { text: userText(asker), content_refs: [] },
    });

  const root = turnRoot(spans);
  // An agent span carrying its model calls' sum (Strands, Vercel) is not counted again.
  const counted = spans.filter((s) => s.tokens_counted !== 0);
  const totals = Object.fromEntries(TOKENS.map((k) => [k, counted.reduce((n, s) => n + num(s[k]), 0)]));
  let cost: number | null = null;
  for (const s of counted) {
    const c = price(s);
    if (c !== null) cost = (cost ?? 0) + c.total;
  }
  return {
    trace_id: traceId,
    root_span_name: root === undefined ? null : String(root.span_name),
    agent_name: root === undefined ? null : rootAgent(root),
    agent_version: root === undefined ? null : (str(root.agent_version) ?? str(root.owner_agent_version)),
    status_code: root === undefined ? null : String(root.status_code),
    provider:
      root === undefined
        ? null
        : (str(root.provider_name) ?? spans.map((s) => str(s.provider_name)).find((p) => p !== null) ?? null),
    started_at: iso(root?.started_at),
    ended_at: iso(root?.ended_at),
    wb_user_id: root === undefined ? null : str(root.wb_user_id),
    total_duration_ms: root === undefined ? null : durationMs(root),
    total_cost_usd: cost,
    total_input_tokens: totals.input_tokens!,
    total_output_tokens: totals.output_tokens!,
    total_reasoning_tokens: totals.reasoning_tokens!,
    total_cache_creation_input_tokens: totals.cache_creation_input_tokens!,
    total_cache_read_input_tokens: totals.cache_read_input_tokens!,
    messages,
  };
}
