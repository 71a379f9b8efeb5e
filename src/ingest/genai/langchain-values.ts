// LangChain's values as OpenInference's LangChain instrumentation records them in input.value /
// output.value: a graph's state `{messages: [...]}` whose messages are plain `{role, content}` or
// LangChain's serialized constructors (`{lc: 1, type: 'constructor', id: [..., 'AIMessage'],
// kwargs: {content, tool_call_id, ...}}`), and a tool's output `{output: <ToolMessage>}`.
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const ROLES: Readonly<Record<string, string>> = {
  HumanMessage: 'user',
  AIMessage: 'assistant',
  ToolMessage: 'tool',
  SystemMessage: 'system',
};

/** A serialized LangChain message's class name and fields, or null. */
function constructed(v: unknown): { cls: string; kwargs: Obj } | null {
  if (!isObj(v) || v.type !== 'constructor' || !Array.isArray(v.id) || !isObj(v.kwargs)) return null;
  const cls = v.id[v.id.length - 1];
  return typeof cls === 'string' ? { cls, kwargs: v.kwargs } : null;
}

/** Text content: a string, or the text parts of a list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

/** The messages of a graph state `{messages: [...]}` as {role, text}, or undefined when it is not one. */
export function stateMessages(v: unknown): { role: string; text: string }[] | undefined {
  if (!isObj(v) || !Array.isArray(v.messages)) return undefined;
  return v.messages.flatMap((m) => {
    const c = constructed(m);
    if (c !== null) return ROLES[c.cls] ? [{ role: ROLES[c.cls]!, text: textOf(c.kwargs.content) }] : [];
    return isObj(m) && typeof m.role === 'string' ? [{ role: m.role, text: textOf(m.content) }] : [];
  });
}

/** A tool's `{output: <ToolMessage>}`: its content and the id of the call it answers. */
export function toolMessage(v: unknown): { content: string; callId: string | null } | undefined {
  const c = constructed(isObj(v) ? v.output : undefined);
  if (c === null || c.cls !== 'ToolMessage') return undefined;
  return {
    content: textOf(c.kwargs.content),
    callId: typeof c.kwargs.tool_call_id === 'string' ? c.kwargs.tool_call_id : null,
  };
}
