// Whether a value is chat messages as the providers shape them (OpenAI, Anthropic, Gemini):
// recognised loosely, so that anything else falls back to the JSON tree.
export type Msg = Record<string, unknown>;

const isMessage = (m: unknown) =>
  typeof m === 'object' &&
  m !== null &&
  typeof (m as Msg).role === 'string' &&
  ('content' in (m as Msg) || 'parts' in (m as Msg) || 'tool_calls' in (m as Msg));

/** The messages of a value that is a chat message or a list of them, else null. */
export function chatMessages(value: unknown): Msg[] | null {
  if (isMessage(value)) return [value as Msg];
  return Array.isArray(value) && value.length > 0 && value.every(isMessage) ? (value as Msg[]) : null;
}
