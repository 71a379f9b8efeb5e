// What the playground edits: the messages (OpenAI's roles), the request's parameters and its
// tools, and the prompt they may follow. Pure data and pure functions, shared by the loaders
// (a call, a span, a prompt) and by the request; the unit tests import it under Node.
import { asText, isDict } from './looseValues.js';

export const ROLES = ['system', 'user', 'assistant', 'tool'] as const;
export type Role = (typeof ROLES)[number];

export interface DraftToolCall {
  id: string;
  name: string;
  /** The arguments as the model writes them: JSON text. */
  arguments: string;
}

export interface DraftMessage {
  role: Role;
  /** The message's text. */
  content: string;
  /** Content parts other than text (images, audio), kept as they came and sent after the text. */
  parts?: unknown[];
  /** Assistant messages: the tools it asked for. */
  tool_calls?: DraftToolCall[];
  /** Tool messages: the call they answer. */
  tool_call_id?: string;
}

export interface DraftParams {
  temperature: number | null;
  max_tokens: number | null;
  top_p: number | null;
  stop: string[];
  seed: number | null;
  /** OpenAI's response_format ({type: 'json_object'}, or a json_schema kept from a call); null: text. */
  response_format: Record<string, unknown> | null;
}

export interface PlaygroundDraft {
  messages: DraftMessage[];
  /** The model the source used (a call's inputs.model), if any. */
  model: string | null;
  params: DraftParams;
  /** OpenAI's `tools` array (function tools). */
  tools: unknown[];
  /** A MessagesPrompt ref the messages follow (a playground call's inputs.prompt). */
  prompt: string | null;
  templateVars: Record<string, string>;
}

/** A message's content as text (text parts joined) and its other parts. */
export function draftContent(content: unknown): { content: string; parts?: unknown[] } {
  if (typeof content === 'string') return { content };
  if (!Array.isArray(content)) return { content: asText(content) };
  const texts: string[] = [];
  const parts: unknown[] = [];
  for (const p of content) {
    if (typeof p === 'string') texts.push(p);
    else if (isDict(p) && typeof p.text === 'string' && (p.type === undefined || /text$/.test(String(p.type))))
      texts.push(p.text);
    else parts.push(p);
  }
  return parts.length > 0 ? { content: texts.join('\n'), parts } : { content: texts.join('\n') };
}

export const EMPTY_PARAMS: DraftParams = {
  temperature: null,
  max_tokens: null,
  top_p: null,
  stop: [],
  seed: null,
  response_format: null,
};

export function emptyDraft(): PlaygroundDraft {
  return {
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: '' },
    ],
    model: null,
    params: EMPTY_PARAMS,
    tools: [],
    prompt: null,
    templateVars: {},
  };
}

/** A message as OpenAI's Chat Completions takes it. */
export function openAiMessage(m: DraftMessage): Record<string, unknown> {
  const content: unknown =
    m.parts && m.parts.length > 0
      ? [...(m.content === '' ? [] : [{ type: 'text', text: m.content }]), ...m.parts]
      : m.content;
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.tool_call_id ?? '', content };
  if (m.role === 'assistant' && m.tool_calls && m.tool_calls.length > 0)
    return {
      role: 'assistant',
      content: content === '' ? null : content,
      tool_calls: m.tool_calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  return { role: m.role, content };
}

/** `{name}` (or `{name:spec}`, `{name!r}`), as Weave's str.format reads them; `{{` and `}}` are literal. */
const FIELD = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}/g;

/** The template variables of messages, in order of first use; assistant messages are not filled. */
export function placeholders(messages: readonly { role: string; content: unknown }[]): string[] {
  const out = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(FIELD)) if (m[1] !== undefined) out.add(m[1]);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(visit);
  };
  for (const m of messages) if (m.role !== 'assistant') visit(m.content);
  return [...out];
}

/**
 * The `inputs` of a completion request for one model. With a prompt, Weave prepends the prompt's
 * messages server-side and fills the template variables into every non-assistant message; the
 * draft's own messages then are only those added after the prompt's.
 */
export function completionInputs(draft: PlaygroundDraft, model: string): Record<string, unknown> {
  const p = draft.params;
  const inputs: Record<string, unknown> = { model, messages: draft.messages.map(openAiMessage) };
  if (p.temperature !== null) inputs.temperature = p.temperature;
  if (p.max_tokens !== null) inputs.max_tokens = p.max_tokens;
  if (p.top_p !== null) inputs.top_p = p.top_p;
  if (p.stop.length > 0) inputs.stop = p.stop;
  if (p.seed !== null) inputs.seed = p.seed;
  if (p.response_format !== null) inputs.response_format = p.response_format;
  if (draft.tools.length > 0) inputs.tools = draft.tools;
  if (draft.prompt !== null) {
    inputs.prompt = draft.prompt;
    inputs.template_vars = draft.templateVars;
  }
  return inputs;
}
