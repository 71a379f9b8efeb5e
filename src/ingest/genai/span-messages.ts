// Messages of a GenAI span, normalized as Weave stores them: one {role, content,
// finish_reason} per message, `content` the message's text when every part is text, else the
// JSON text of its parts (tool calls, tool responses, media), so nothing is lost. Read from
// the semconv "parts" JSON (gen_ai.input.messages / output.messages), flat {role, content}
// lists (older gen_ai.prompt / gen_ai.completion and OpenAI-shaped messages), or plain text.

export interface NormalizedMessage {
  readonly role: string;
  readonly content: string;
  readonly finish_reason: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON text attribute as its value; anything else as it is. */
function parsed(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  if (t[0] !== '[' && t[0] !== '{') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

const textOf = (part: Obj): string | null =>
  (part.type === 'text' || part.type === undefined) && typeof part.content === 'string'
    ? part.content
    : typeof part.text === 'string' && (part.type === 'text' || part.type === undefined)
      ? part.text
      : null;

/** One message's content: its text when all of it is text, else its parts as JSON text. */
function contentOf(m: Obj): string {
  if (Array.isArray(m.parts)) {
    const parts = m.parts.filter(isObj);
    const texts = parts.map(textOf);
    if (texts.every((t) => t !== null)) return texts.join('');
    return JSON.stringify(parts);
  }
  const c = m.content;
  if (typeof c === 'string') {
    // OpenAI-shaped tool calls beside the text are kept with it.
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0)
      return JSON.stringify({ content: c, tool_calls: m.tool_calls });
    return c;
  }
  if (Array.isArray(c)) {
    const items = c.filter(isObj);
    const texts = items.map(textOf);
    if (texts.every((t) => t !== null)) return texts.join('');
    return JSON.stringify(c);
  }
  if (c === undefined || c === null)
    return Array.isArray(m.tool_calls) ? JSON.stringify({ tool_calls: m.tool_calls }) : '';
  return JSON.stringify(c);
}

function normalizeOne(m: unknown, defaultRole: string): NormalizedMessage | null {
  if (typeof m === 'string') return { role: defaultRole, content: m, finish_reason: null };
  if (!isObj(m)) return null;
  const role = typeof m.role === 'string' && m.role !== '' ? m.role : defaultRole;
  const finish = typeof m.finish_reason === 'string' ? m.finish_reason : null;
  return { role, content: contentOf(m), finish_reason: finish };
}

/** Messages from an attribute value; [] when there are none. */
export function normalizeMessages(value: unknown, defaultRole: string): NormalizedMessage[] {
  const v = parsed(value);
  if (v === undefined || v === null || v === '') return [];
  // A completion object with choices (OpenAI-shaped) reads as its choices' messages.
  if (isObj(v) && Array.isArray(v.choices)) {
    return v.choices.flatMap((c) => {
      if (!isObj(c)) return [];
      const m = normalizeOne(c.message ?? c, defaultRole);
      return m === null
        ? []
        : [{ ...m, finish_reason: typeof c.finish_reason === 'string' ? c.finish_reason : m.finish_reason }];
    });
  }
  if (isObj(v) && Array.isArray(v.messages)) return normalizeMessages(v.messages, defaultRole);
  const list = Array.isArray(v) ? v : [v];
  return list.flatMap((m) => {
    const n = normalizeOne(m, defaultRole);
    return n === null ? [] : [n];
  });
}

/** System instructions as a list of texts: a parts list, a list of strings, or one string. */
export function normalizeInstructions(value: unknown): string[] {
  const v = parsed(value);
  if (typeof v === 'string') return v === '' ? [] : [v];
  const list = Array.isArray(v) ? v : isObj(v) ? [v] : [];
  return list.flatMap((p) => {
    if (typeof p === 'string') return [p];
    if (!isObj(p)) return [];
    const t = textOf(p);
    return t !== null ? [t] : [JSON.stringify(p)];
  });
}
