// A thread's turns usually resend the whole conversation so far: each turn's request holds the
// previous turn's messages and response again. The thread view shows what each turn adds.
import type { Msg } from '../render/chatMessages';
import { requestMessages, responseMessages } from '../render/modelConversation';

export interface TurnMessages {
  /** The turn's request messages, when its input is a chat. */
  messages: Msg[];
  /** How many of them the previous turns already showed (a prefix). */
  seen: number;
}

/**
 * Two messages say the same thing: role, content and tool calls (a provider's response carries
 * fields, such as `refusal: null`, that an application drops when it sends the message back).
 */
const gist = (m: Msg) =>
  JSON.stringify([
    m.role,
    m.content ?? m.parts ?? null,
    Array.isArray(m.tool_calls) ? (m.tool_calls as Msg[]).map((t) => t.id ?? t) : null,
    m.tool_call_id ?? null,
  ]);
const same = (a: Msg, b: Msg) => gist(a) === gist(b);

/** Per turn, in order: its chat messages and how many lead ones repeat the turns before; null where the input is no chat. */
export function turnMessages(turns: readonly { inputs: unknown; output?: unknown }[]): (TurnMessages | null)[] {
  let shown: Msg[] = [];
  return turns.map((t) => {
    const messages = requestMessages(t.inputs);
    if (messages === null) {
      shown = [];
      return null;
    }
    let seen = 0;
    while (seen < messages.length && seen < shown.length && same(messages[seen]!, shown[seen]!)) seen++;
    const response = t.output === undefined || t.output === null ? [] : (responseMessages(t.output) ?? []);
    shown = [...messages, ...response];
    return { messages, seen };
  });
}
