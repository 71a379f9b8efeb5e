// Message content as Bedrock Converse-style content blocks ({text}, {toolUse}, {toolResult},
// {reasoningContent}), which Strands Agents sends in its message events, read as semconv
// "parts" (text, tool_call, tool_call_response, reasoning). Strands also flattens a tool use
// as {type:"toolUse", name, toolUseId, input}. A block of another shape is kept as it is.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One content block as one semconv part. */
export function blockPart(block: unknown): unknown {
  if (typeof block === 'string') return { type: 'text', content: block };
  if (!isObj(block)) return block;
  if (typeof block.text === 'string' && (block.type === undefined || block.type === 'text'))
    return { type: 'text', content: block.text };
  const use = isObj(block.toolUse) ? block.toolUse : block.type === 'toolUse' ? block : null;
  if (use !== null)
    return { type: 'tool_call', id: use.toolUseId ?? null, name: use.name ?? null, arguments: use.input };
  const result = isObj(block.toolResult) ? block.toolResult : block.type === 'toolResult' ? block : null;
  if (result !== null) return { type: 'tool_call_response', id: result.toolUseId ?? null, response: result.content };
  const reasoning = isObj(block.reasoningContent) ? block.reasoningContent.reasoningText : null;
  if (isObj(reasoning) && typeof reasoning.text === 'string') return { type: 'reasoning', content: reasoning.text };
  return block;
}

/**
 * A message's content (an attribute value: text, JSON text of blocks, or blocks) as parts:
 * plain text that is not JSON stays one text part.
 */
export function contentParts(value: unknown): unknown[] {
  let v = value;
  if (typeof v === 'string') {
    const t = v.trimStart();
    if (t[0] !== '[' && t[0] !== '{') return v === '' ? [] : [{ type: 'text', content: v }];
    try {
      v = JSON.parse(v);
    } catch {
      return [{ type: 'text', content: value }];
    }
  }
  if (Array.isArray(v)) return v.map(blockPart);
  if (v === undefined || v === null) return [];
  return [blockPart(v)];
}
