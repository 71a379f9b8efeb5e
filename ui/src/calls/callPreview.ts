// What a calls-table cell shows of a value: its start, never a whole payload. A model call's
// cells read as the conversation does: the last request message in, the reply out (its text,
// or the tools it calls), not the provider's JSON envelope.
import { readableNumber } from '../format';
import type { Msg } from '../render/chatMessages';
import { requestMessages, responseMessages } from '../render/modelConversation';
import { isDict } from '../isDict';

/** A cell shows at most this much of a value (its title shows more). */
export const CELL_CHARS = 200;

export function cellText(v: unknown, chars = CELL_CHARS): string {
  if (v === undefined || v === null) return '';
  const s = typeof v === 'string' ? v : typeof v === 'number' ? readableNumber(v) : JSON.stringify(v);
  return s.length > chars ? `${s.slice(0, chars)}…` : s;
}

/** A message's text: its content (string, or text parts), Gemini's parts, or the tools it calls. */
function messageText(m: Msg): string {
  const parts = Array.isArray(m.content) ? m.content : Array.isArray(m.parts) ? m.parts : null;
  let text = typeof m.content === 'string' ? m.content : '';
  if (parts !== null)
    text = parts
      .map((p) => (typeof p === 'string' ? p : isDict(p) && typeof p.text === 'string' ? p.text : ''))
      .filter((t) => t !== '')
      .join(' ');
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  const called = calls
    .map((c) =>
      isDict(c) && isDict(c.function) ? `${String(c.function.name)}(${String(c.function.arguments ?? '')})` : '',
    )
    .filter((c) => c !== '');
  return [text, ...called.map((c) => `→ ${c}`)].filter((t) => t !== '').join(' ');
}

/**
 * A call's inputs: a chat request as its last message's text; else one argument as its value
 * alone (`What is 2 + 2?`), several as `name: value` pairs; `self` (the object an op is a
 * method of) is left out.
 */
export function inputPreview(inputs: unknown, chars = CELL_CHARS): string {
  if (!isDict(inputs)) return cellText(inputs, chars);
  const messages = requestMessages(inputs);
  const last = messages?.[messages.length - 1];
  if (last !== undefined && messageText(last) !== '') return cellText(messageText(last), chars);
  const entries = Object.entries(inputs).filter(([k]) => k !== 'self');
  if (entries.length === 1) return cellText(entries[0]![1], chars);
  return cellText(entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', '), chars);
}

/** A call's output: a model's reply as its text (or the tools it calls), else the value's start. */
export function outputPreview(output: unknown, chars = CELL_CHARS): string {
  if (isDict(output)) {
    const reply = responseMessages(output);
    const text = reply === null ? '' : reply.map(messageText).join(' ');
    if (text !== '') return cellText(text, chars);
  }
  return cellText(output, chars);
}
