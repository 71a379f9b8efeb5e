// A model call as one conversation: the request's messages, then the response as the next
// turn. Recognised for OpenAI Chat Completions (inputs.messages, output.choices[].message),
// Anthropic Messages (inputs.system + inputs.messages, the output itself a message) and Gemini
// (inputs.contents, output.candidates[].content); anything else is no conversation (null).
import { chatMessages, type Msg } from './chatMessages';
import { isDict } from '../isDict';

export interface ModelConversation {
  /** Request messages, then the response's. */
  messages: Msg[];
  /** How many of `messages` the response added (at the end). */
  responseCount: number;
  /** The tool definitions offered with the request (shown folded). */
  tools: unknown[];
  /** The request's other inputs (model, temperature...). */
  rest: Record<string, unknown>;
}

/** The response's messages, or null when the output is no model response. */
export function responseMessages(output: unknown): Msg[] | null {
  if (typeof output === 'string') return [{ role: 'assistant', content: output }];
  if (!isDict(output)) return chatMessages(output);
  if (Array.isArray(output.choices)) {
    const msgs = output.choices.map((c) => (isDict(c) && isDict(c.message) ? c.message : null));
    return msgs.length > 0 && msgs.every((m) => m !== null) ? (msgs as Msg[]) : null;
  }
  if (Array.isArray(output.candidates)) {
    const msgs = output.candidates.map((c) => (isDict(c) && isDict(c.content) ? c.content : null));
    return msgs.length > 0 && msgs.every((m) => m !== null) ? (msgs as Msg[]) : null;
  }
  return chatMessages(output);
}

/** Where a request keeps its messages: `messages` (OpenAI, Anthropic) or `contents` (Gemini). */
function messagesKey(inputs: Msg): 'messages' | 'contents' | null {
  return 'messages' in inputs ? 'messages' : 'contents' in inputs ? 'contents' : null;
}

/** A request's chat messages (a list of messages, or inputs holding one), else null. */
export function requestMessages(inputs: unknown): Msg[] | null {
  const direct = chatMessages(inputs);
  if (direct !== null || !isDict(inputs)) return direct;
  const key = messagesKey(inputs);
  return key === null ? null : chatMessages(inputs[key]);
}

export function modelConversation(inputs: unknown, output: unknown): ModelConversation | null {
  if (!isDict(inputs)) return null;
  const key = messagesKey(inputs);
  const request = key === null ? null : chatMessages(inputs[key]);
  if (request === null) return null;
  const response = output === undefined || output === null ? [] : responseMessages(output);
  if (response === null) return null;
  const { [key!]: _m, tools, system, ...rest } = inputs;
  const systemMsgs: Msg[] =
    typeof system === 'string' || Array.isArray(system) ? [{ role: 'system', content: system }] : [];
  if (system !== undefined && systemMsgs.length === 0) rest.system = system;
  return {
    messages: [...systemMsgs, ...request, ...response],
    responseCount: response.length,
    tools: Array.isArray(tools) ? tools : [],
    rest,
  };
}
