// An agent's chat span (a row of /agents/spans/query) as a playground draft: its system
// instructions, its input messages and the request's model and parameters. Weft stores a
// span's messages normalized: {role, content}, the content the message's text, or the JSON
// text of its parts when some part is not text (GenAI semconv parts: tool_call,
// tool_call_response...), or of {content, tool_calls} for OpenAI-shaped calls. Tool
// definitions come from gen_ai.tool.definitions when the span carries them.
import { asText, type Dict, int, isDict, num, parsedJson, stops, str } from './looseValues.js';
import { draftContent, type DraftMessage, type DraftToolCall, type PlaygroundDraft } from './playgroundDraft.js';

function fromParts(role: string, parts: Dict[]): DraftMessage[] {
  const texts: string[] = [];
  const calls: DraftToolCall[] = [];
  const results: DraftMessage[] = [];
  for (const p of parts) {
    if (p.type === 'text' || (p.type === undefined && (typeof p.content === 'string' || typeof p.text === 'string')))
      texts.push(str(p.content) ?? str(p.text) ?? '');
    else if (p.type === 'tool_call')
      calls.push({ id: str(p.id) ?? '', name: str(p.name) ?? '', arguments: asText(p.arguments ?? {}) });
    else if (p.type === 'tool_call_response')
      results.push({ role: 'tool', content: asText(p.response ?? p.result ?? null), tool_call_id: str(p.id) ?? '' });
  }
  const content = texts.join('\n');
  if (role === 'assistant') return [calls.length > 0 ? { role, content, tool_calls: calls } : { role, content }];
  if (role === 'tool') return results.length > 0 ? results : [{ role: 'tool', content, tool_call_id: '' }];
  const r = role === 'system' ? 'system' : 'user';
  return [...results, ...(content !== '' || results.length === 0 ? [{ role: r, content } as DraftMessage] : [])];
}

function messageOf(m: unknown): DraftMessage[] {
  if (!isDict(m)) return [];
  const role = str(m.role) ?? 'user';
  const content = parsedJson(m.content);
  if (Array.isArray(content) && content.every(isDict) && content.some((p) => typeof p.type === 'string'))
    return fromParts(role, content);
  if (isDict(content) && Array.isArray(content.tool_calls)) {
    const calls = content.tool_calls.filter(isDict).map((c, i) => {
      const fn = isDict(c.function) ? c.function : c;
      return { id: str(c.id) ?? `call_${i}`, name: str(fn.name) ?? '', arguments: asText(fn.arguments ?? {}) };
    });
    return [{ role: 'assistant', content: asText(content.content ?? ''), tool_calls: calls }];
  }
  const text = typeof m.content === 'string' ? { content: m.content } : draftContent(m.content);
  if (role === 'assistant' || role === 'system' || role === 'user') return [{ role, ...text }];
  if (role === 'tool') return [{ role, ...text, tool_call_id: str(m.tool_call_id) ?? '' }];
  return [{ role: 'user', ...text }];
}

function toolsOf(v: unknown): unknown[] {
  const list = parsedJson(v);
  if (!Array.isArray(list)) return [];
  return list.filter(isDict).map((t) => {
    if (t.type === 'function' && isDict(t.function)) return t;
    // The semconv's flat form: {type: 'function', name, description, parameters}.
    const { type: _t, ...fn } = t;
    return { type: 'function', function: fn };
  });
}

export function spanToPlayground(span: Dict): PlaygroundDraft {
  const instructions = parsedJson(span.system_instructions);
  const system = Array.isArray(instructions)
    ? instructions.map(asText).join('\n')
    : typeof instructions === 'string'
      ? instructions
      : '';
  const input = parsedJson(span.input_messages);
  const messages = (Array.isArray(input) ? input : []).flatMap(messageOf);
  const hasSystem = messages.some((m) => m.role === 'system');
  return {
    messages: system !== '' && !hasSystem ? [{ role: 'system', content: system }, ...messages] : messages,
    model: str(span.request_model) ?? str(span.response_model),
    params: {
      temperature: num(span.request_temperature),
      max_tokens: int(span.request_max_tokens),
      top_p: num(span.request_top_p),
      stop: stops(parsedJson(span.request_stop_sequences)),
      seed: int(span.request_seed),
      response_format: null,
    },
    tools: toolsOf(span.tool_definitions),
    prompt: null,
    templateVars: {},
  };
}
