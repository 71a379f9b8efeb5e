// A recorded model call's inputs as a playground draft: the messages, model, parameters and
// tools, in OpenAI's Chat Completions shape (what /completions/create_stream takes). Read from
// OpenAI Chat Completions (Weave's openai ops and the playground's own calls, with their
// prompt and template variables), OpenAI Responses, Anthropic Messages and Gemini
// (google-genai and google-generativeai). Anything else is no model call: null.
import { anthropicToPlayground } from './anthropicToPlayground.js';
import { geminiToPlayground } from './geminiToPlayground.js';
import { asText, type Dict, int, isDict, num, stops, str } from './looseValues.js';
import {
  draftContent,
  type DraftMessage,
  type DraftParams,
  type DraftToolCall,
  type PlaygroundDraft,
} from './playgroundDraft.js';
import { responsesToPlayground } from './responsesToPlayground.js';

function toolCalls(v: unknown): DraftToolCall[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isDict).map((c, i) => {
    const fn = isDict(c.function) ? c.function : c;
    return { id: str(c.id) ?? `call_${i}`, name: str(fn.name) ?? '', arguments: asText(fn.arguments ?? {}) };
  });
}

function openAiMessage(m: Dict): DraftMessage | null {
  const role = str(m.role);
  const body = draftContent(m.content);
  if (role === 'system' || role === 'developer') return { role: 'system', ...body };
  if (role === 'user') return { role: 'user', ...body };
  if (role === 'tool' || role === 'function')
    return { role: 'tool', ...body, tool_call_id: str(m.tool_call_id) ?? str(m.name) ?? '' };
  if (role === 'assistant') {
    const calls = toolCalls(m.tool_calls);
    return calls.length > 0 ? { role: 'assistant', ...body, tool_calls: calls } : { role: 'assistant', ...body };
  }
  return null;
}

/** OpenAI's response_format; `{type: 'text'}` is the default, so none. */
function responseFormat(v: unknown): Dict | null {
  return isDict(v) && v.type !== 'text' && typeof v.type === 'string' ? v : null;
}

export function openAiParams(inputs: Dict): DraftParams {
  return {
    temperature: num(inputs.temperature),
    max_tokens: int(inputs.max_tokens) ?? int(inputs.max_completion_tokens),
    top_p: num(inputs.top_p),
    stop: stops(inputs.stop),
    seed: int(inputs.seed),
    response_format: responseFormat(inputs.response_format),
  };
}

function openAiTools(inputs: Dict): unknown[] {
  if (Array.isArray(inputs.tools)) return inputs.tools;
  // The older `functions` parameter: the same definitions, unwrapped.
  if (Array.isArray(inputs.functions)) return inputs.functions.map((f) => ({ type: 'function', function: f }));
  return [];
}

function templateVars(v: unknown): Record<string, string> {
  if (!isDict(v)) return {};
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asText(x)]));
}

function openAiToPlayground(inputs: Dict): PlaygroundDraft {
  const messages = Array.isArray(inputs.messages) ? inputs.messages : [];
  return {
    messages: messages.flatMap((m) => {
      const d = isDict(m) ? openAiMessage(m) : null;
      return d === null ? [] : [d];
    }),
    model: str(inputs.model),
    params: openAiParams(inputs),
    tools: openAiTools(inputs),
    prompt: str(inputs.prompt),
    templateVars: templateVars(inputs.template_vars),
  };
}

const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'document']);

/** Anthropic's request differs from OpenAI's by a top-level system, its blocks and its tools. */
function looksAnthropic(inputs: Dict, messages: unknown[]): boolean {
  if ('system' in inputs || 'stop_sequences' in inputs) return true;
  if (Array.isArray(inputs.tools) && inputs.tools.some((t) => isDict(t) && 'input_schema' in t)) return true;
  return messages.some(
    (m) =>
      isDict(m) &&
      Array.isArray(m.content) &&
      m.content.some(
        (b) => isDict(b) && (ANTHROPIC_BLOCKS.has(String(b.type)) || (b.type === 'image' && isDict(b.source))),
      ),
  );
}

/** The draft of a call's inputs, or null when they are no model request. */
export function callToPlayground(inputs: unknown): PlaygroundDraft | null {
  if (!isDict(inputs)) return null;
  // Some integrations record the request's keyword arguments under `kwargs`.
  const req = !('messages' in inputs) && !('contents' in inputs) && isDict(inputs.kwargs) ? inputs.kwargs : inputs;
  if ('contents' in req) return geminiToPlayground(req);
  if (Array.isArray(req.messages))
    return looksAnthropic(req, req.messages) ? anthropicToPlayground(req) : openAiToPlayground(req);
  if (typeof req.input === 'string' || Array.isArray(req.input)) return responsesToPlayground(req);
  // A playground call on a prompt alone.
  if (typeof req.prompt === 'string' && typeof req.model === 'string') return openAiToPlayground(req);
  return null;
}
