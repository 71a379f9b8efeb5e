// Anthropic Messages inputs as a playground draft in OpenAI's shape: `system` (text or text
// blocks) the first message; an assistant's tool_use blocks its tool calls; a user's
// tool_result blocks tool messages, placed before the user's own text as OpenAI wants them
// right after the call; base64 and URL images as image_url parts; tools with an input_schema
// as function tools (server tools such as web search have no OpenAI counterpart: left out).
import { asText, type Dict, int, isDict, num, stops, str } from './looseValues.js';
import type { DraftMessage, DraftToolCall, PlaygroundDraft } from './playgroundDraft.js';

type Block = Dict;
const blocksOf = (content: unknown): Block[] =>
  typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : Array.isArray(content)
      ? content.filter(isDict)
      : [];

function imagePart(b: Block): Dict | null {
  const s = isDict(b.source) ? b.source : null;
  if (s?.type === 'base64' && typeof s.data === 'string')
    return { type: 'image_url', image_url: { url: `data:${str(s.media_type) ?? 'image/png'};base64,${s.data}` } };
  if (s?.type === 'url' && typeof s.url === 'string') return { type: 'image_url', image_url: { url: s.url } };
  return null;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : blocksOf(content)
        .map((b) => (typeof b.text === 'string' ? b.text : asText(b)))
        .join('\n');

function userMessages(content: unknown): DraftMessage[] {
  const out: DraftMessage[] = [];
  const texts: string[] = [];
  const parts: unknown[] = [];
  for (const b of blocksOf(content)) {
    if (b.type === 'tool_result')
      out.push({ role: 'tool', content: textOf(b.content), tool_call_id: str(b.tool_use_id) ?? '' });
    else if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    else if (b.type === 'image') {
      const part = imagePart(b);
      if (part !== null) parts.push(part);
    }
  }
  if (texts.length > 0 || parts.length > 0 || out.length === 0)
    out.push(
      parts.length > 0
        ? { role: 'user', content: texts.join('\n'), parts }
        : { role: 'user', content: texts.join('\n') },
    );
  return out;
}

function assistantMessage(content: unknown): DraftMessage {
  const texts: string[] = [];
  const calls: DraftToolCall[] = [];
  for (const b of blocksOf(content)) {
    if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    else if (b.type === 'tool_use')
      calls.push({ id: str(b.id) ?? '', name: str(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) });
  }
  const m: DraftMessage = { role: 'assistant', content: texts.join('\n') };
  return calls.length > 0 ? { ...m, tool_calls: calls } : m;
}

function tools(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((t): t is Dict => isDict(t) && isDict(t.input_schema))
    .map((t) => ({
      type: 'function',
      function: {
        name: str(t.name) ?? '',
        ...(typeof t.description === 'string' ? { description: t.description } : {}),
        parameters: t.input_schema,
      },
    }));
}

export function anthropicToPlayground(inputs: Dict): PlaygroundDraft {
  const system = inputs.system === undefined || inputs.system === null ? '' : textOf(inputs.system);
  const messages: DraftMessage[] = system === '' ? [] : [{ role: 'system', content: system }];
  for (const m of Array.isArray(inputs.messages) ? inputs.messages : []) {
    if (!isDict(m)) continue;
    if (m.role === 'assistant') messages.push(assistantMessage(m.content));
    else if (m.role === 'user') messages.push(...userMessages(m.content));
  }
  return {
    messages,
    model: str(inputs.model),
    params: {
      temperature: num(inputs.temperature),
      max_tokens: int(inputs.max_tokens),
      top_p: num(inputs.top_p),
      stop: stops(inputs.stop_sequences),
      seed: null,
      response_format: null,
    },
    tools: tools(inputs.tools),
    prompt: null,
    templateVars: {},
  };
}
