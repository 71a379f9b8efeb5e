// OpenAI Responses inputs (`openai.responses.create`) as a playground draft in Chat Completions
// shape: `instructions` the system message, the input items as messages (a function call joins
// the assistant message before it, its output becomes a tool message), the flat function
// tools wrapped, `text.format` as response_format. Reasoning items are left out.
import { type Dict, int, isDict, num, str } from './looseValues.js';
import { draftContent, type DraftMessage, type PlaygroundDraft } from './playgroundDraft.js';

function role(r: unknown): DraftMessage['role'] | null {
  if (r === 'system' || r === 'developer') return 'system';
  if (r === 'user' || r === 'assistant') return r;
  return null;
}

function messagesOf(input: unknown): DraftMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return [];
  const out: DraftMessage[] = [];
  for (const item of input) {
    if (!isDict(item)) continue;
    if (item.type === 'function_call') {
      const call = { id: str(item.call_id) ?? str(item.id) ?? '', name: str(item.name) ?? '', arguments: '' };
      call.arguments = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {});
      const last = out.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else out.push({ role: 'assistant', content: '', tool_calls: [call] });
    } else if (item.type === 'function_call_output') {
      const output = typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? null);
      out.push({ role: 'tool', content: output, tool_call_id: str(item.call_id) ?? '' });
    } else if (item.type === undefined || item.type === 'message') {
      const r = role(item.role);
      if (r !== null) out.push({ role: r, ...draftContent(item.content) });
    }
  }
  return out;
}

function formatOf(text: unknown): Dict | null {
  const f = isDict(text) && isDict(text.format) ? text.format : null;
  if (f === null || f.type === 'text') return null;
  if (f.type === 'json_schema') {
    const { type: _t, ...schema } = f;
    return { type: 'json_schema', json_schema: schema };
  }
  return { type: str(f.type) ?? 'json_object' };
}

export function responsesToPlayground(inputs: Dict): PlaygroundDraft {
  const instructions = str(inputs.instructions);
  const tools = Array.isArray(inputs.tools) ? inputs.tools.filter(isDict) : [];
  return {
    messages: [
      ...(instructions ? [{ role: 'system' as const, content: instructions }] : []),
      ...messagesOf(inputs.input),
    ],
    model: str(inputs.model),
    params: {
      temperature: num(inputs.temperature),
      max_tokens: int(inputs.max_output_tokens),
      top_p: num(inputs.top_p),
      stop: [],
      seed: null,
      response_format: formatOf(inputs.text),
    },
    tools: tools
      .filter((t) => t.type === 'function')
      .map(({ type: _t, ...fn }) => ({ type: 'function', function: fn })),
    prompt: null,
    templateVars: {},
  };
}
