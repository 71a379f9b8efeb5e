// The tool calls a model asked for, read from its span's messages, for the chat view's
// include_model_tool_calls (Weave's AgentTraceChatReq): a request shows even when no
// execute_tool span recorded running it. Read from assistant output messages only, as the
// normalized parts list (`{type: "tool_call", id, name, arguments}`) or an OpenAI-shaped
// `tool_calls` list; a request without a name is not one. A later span's input answering the
// call id (`{type: "tool_call_response", id, response}`) gives its result. Engine-neutral.
import type { SpanRow } from '../../query/span-columns.js';

export interface ToolRequest {
  /** The call id, '' when the model gave none. */
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text, null when absent. */
  readonly arguments: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const jsonText = (v: unknown): string | null =>
  v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);

function parse(text: unknown): unknown {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The messages of a span's message column ([{role, content}], content JSON text or text). */
function messagesOf(column: unknown): { role: string; content: unknown }[] {
  const list = parse(column);
  return Array.isArray(list)
    ? list.filter(isObj).map((m) => ({ role: typeof m.role === 'string' ? m.role : '', content: m.content }))
    : [];
}

/** One message content's tool calls, in order. */
function callsOf(content: unknown): ToolRequest[] {
  const v = parse(content);
  const out: ToolRequest[] = [];
  const add = (id: unknown, name: unknown, args: unknown) => {
    if (typeof name !== 'string' || name === '') return;
    out.push({ id: typeof id === 'string' ? id : '', name, arguments: jsonText(args) });
  };
  if (Array.isArray(v)) {
    for (const p of v) if (isObj(p) && p.type === 'tool_call') add(p.id, p.name, p.arguments);
  } else if (isObj(v) && Array.isArray(v.tool_calls)) {
    for (const c of v.tool_calls)
      if (isObj(c)) {
        const fn = isObj(c.function) ? c.function : c;
        add(c.id, fn.name, fn.arguments);
      }
  }
  return out;
}

/** The tool calls the span's model asked for, in order. */
export function toolRequests(span: SpanRow): ToolRequest[] {
  return messagesOf(span.output_messages)
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => callsOf(m.content));
}

/** The answers a span's input messages carry, by call id. */
export function toolResponses(span: SpanRow): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of messagesOf(span.input_messages)) {
    const v = parse(m.content);
    if (!Array.isArray(v)) continue;
    for (const p of v)
      if (isObj(p) && p.type === 'tool_call_response' && typeof p.id === 'string' && p.id !== '') {
        const text = jsonText(p.response ?? p.result);
        if (text !== null) out.set(p.id, text);
      }
  }
  return out;
}

/**
 * The calls each span's model asked for that no execute_tool span of the trace ran (by call
 * id), each call id once (the first asker: an agent span mirroring its model call's output
 * is walked after it), with the result a later span's input gives.
 */
export function unexecutedRequests(
  spans: readonly SpanRow[],
): (span: SpanRow) => { tool_name: string; tool_arguments: string | null; tool_result: string | null }[] {
  const executed = new Set(
    spans.flatMap((s) =>
      s.operation_name === 'execute_tool' && s.tool_call_id !== null ? [String(s.tool_call_id)] : [],
    ),
  );
  const shown = new Set<string>();
  // Each span's answers parsed once, however many requests look for theirs.
  const answers = new Map<SpanRow, Map<string, string>>();
  const answersOf = (s: SpanRow) => answers.get(s) ?? answers.set(s, toolResponses(s)).get(s)!;
  return (span) => {
    if (span.operation_name === 'execute_tool') return [];
    const out = [];
    for (const r of toolRequests(span)) {
      if (r.id !== '' && (executed.has(r.id) || shown.has(r.id))) continue;
      if (r.id !== '') shown.add(r.id);
      const result =
        r.id === ''
          ? undefined
          : spans
              .filter((o) => o !== span && Number(o.started_at) >= Number(span.started_at))
              .map((o) => answersOf(o).get(r.id))
              .find((t) => t !== undefined);
      out.push({ tool_name: r.name, tool_arguments: r.arguments, tool_result: result ?? null });
    }
    return out;
  };
}
