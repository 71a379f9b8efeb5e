// The messages of a span as /agents/search finds them, the same on every engine: each input
// and output message under its own role, the system instructions as `system`, a tool's
// arguments as `tool_call` and its result as `tool_result`. A body is stored once per project
// by its digest (a model call repeats the whole history, so most bodies recur), and each message
// once per conversation (per trace outside any), at its first occurrence: the earliest by
// (started_at, span_id, order in the span). A span sent again, moved to another conversation or
// purged hands its first occurrences to the next ones (each engine's span-message-writes.ts).
import { createHash } from 'node:crypto';

export interface SpanMessage {
  readonly role: string;
  readonly content: string;
  /** 128 bits of SHA-256 of the content, as hex. */
  readonly digest: string;
}

export const messageDigest = (content: string): string =>
  createHash('sha256').update(content).digest('hex').slice(0, 32);

function listOf(json: unknown): unknown[] {
  if (typeof json !== 'string' || json === '') return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** The span columns messages are read from. */
export const FANOUT_COLUMNS = [
  'system_instructions',
  'input_messages',
  'output_messages',
  'tool_call_arguments',
  'tool_call_result',
] as const;
export type FanoutSpan = { readonly [c in (typeof FANOUT_COLUMNS)[number]]?: string | number | null };

/** A message's scope: its conversation, else its trace (the key of the first-occurrence rows). */
export const messageScope = (conversationId: string | null, traceId: string): string =>
  conversationId === null ? `t:${traceId}` : `c:${conversationId}`;

/** Whether occurrence a (start, span id, order) comes before b: the first occurrence is the least. */
export const occursBefore = (
  a: { readonly started_at: number; readonly span_id: string; readonly ord: number },
  b: { readonly started_at: number; readonly span_id: string; readonly ord: number },
): boolean =>
  a.started_at !== b.started_at
    ? a.started_at < b.started_at
    : a.span_id !== b.span_id
      ? a.span_id < b.span_id
      : a.ord < b.ord;

/** The searchable messages of one span, in order; blank contents are left out. */
export function messageFanout(row: FanoutSpan): SpanMessage[] {
  const out: SpanMessage[] = [];
  const add = (role: unknown, content: unknown) => {
    if (typeof content !== 'string' || content.trim() === '') return;
    out.push({ role: typeof role === 'string' ? role : '', content, digest: messageDigest(content) });
  };
  for (const text of listOf(row.system_instructions)) add('system', text);
  for (const column of ['input_messages', 'output_messages'] as const)
    for (const m of listOf(row[column]))
      if (typeof m === 'object' && m !== null)
        add((m as { role?: unknown }).role, (m as { content?: unknown }).content);
  add('tool_call', row.tool_call_arguments);
  add('tool_result', row.tool_call_result);
  return out;
}
