// The chat.completion a stream of chat.completion.chunk objects adds up to: what the tracked
// call of /completions/create_stream records as its output (weave-objects.md §9.5). Per choice,
// content, reasoning and tool-call arguments are concatenated in order, tool calls kept by
// their index; usage is the last chunk's that carries one.

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

interface ToolCallParts {
  id: string | null;
  type: string;
  name: string;
  args: string;
}

interface ChoiceParts {
  role: string;
  content: string | null;
  reasoning: string | null;
  tools: Map<number, ToolCallParts>;
  finish: unknown;
}

export class ChunkAggregate {
  private head: Dict = {};
  private usage: unknown = null;
  private readonly choices = new Map<number, ChoiceParts>();

  add(chunk: unknown): void {
    if (!isDict(chunk)) return;
    if (this.head.id === undefined) {
      this.head = { id: chunk.id, created: chunk.created, model: chunk.model };
      if (chunk.system_fingerprint !== undefined) this.head.system_fingerprint = chunk.system_fingerprint;
    }
    if (isDict(chunk.usage)) this.usage = chunk.usage;
    for (const c of Array.isArray(chunk.choices) ? chunk.choices : []) {
      if (!isDict(c)) continue;
      const index = typeof c.index === 'number' ? c.index : 0;
      let parts = this.choices.get(index);
      if (parts === undefined) {
        parts = { role: 'assistant', content: null, reasoning: null, tools: new Map(), finish: null };
        this.choices.set(index, parts);
      }
      if (c.finish_reason !== null && c.finish_reason !== undefined) parts.finish = c.finish_reason;
      const d = isDict(c.delta) ? c.delta : {};
      if (typeof d.role === 'string') parts.role = d.role;
      if (typeof d.content === 'string') parts.content = (parts.content ?? '') + d.content;
      if (typeof d.reasoning_content === 'string') parts.reasoning = (parts.reasoning ?? '') + d.reasoning_content;
      for (const t of Array.isArray(d.tool_calls) ? d.tool_calls : []) {
        if (!isDict(t)) continue;
        const at = typeof t.index === 'number' ? t.index : parts.tools.size;
        let tool = parts.tools.get(at);
        if (tool === undefined) parts.tools.set(at, (tool = { id: null, type: 'function', name: '', args: '' }));
        if (typeof t.id === 'string') tool.id = t.id;
        if (typeof t.type === 'string') tool.type = t.type;
        const f = isDict(t.function) ? t.function : {};
        if (typeof f.name === 'string') tool.name += f.name;
        if (typeof f.arguments === 'string') tool.args += f.arguments;
      }
    }
  }

  /** The completion so far, in OpenAI's non-streaming shape. */
  completion(): Dict {
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, p]) => {
        const message: Dict = { role: p.role, content: p.content };
        if (p.reasoning !== null) message.reasoning_content = p.reasoning;
        if (p.tools.size > 0)
          message.tool_calls = [...p.tools.entries()]
            .sort(([a], [b]) => a - b)
            .map(([, t]) => ({ id: t.id, type: t.type, function: { name: t.name, arguments: t.args } }));
        return { index, message, finish_reason: p.finish };
      });
    return { ...this.head, object: 'chat.completion', choices, usage: this.usage };
  }
}
