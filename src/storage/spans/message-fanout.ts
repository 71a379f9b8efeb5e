// The messages of a span as /agents/search finds them, the same on every engine: each input
// and output message under its own role, the system instructions as `system`, a tool's
// arguments as `tool_call` and its result as `tool_result`. A body is stored once per project
// by its digest (a model call repeats the whole history, so most bodies recur); each span
// keeps the list of (role, digest) it holds, in order. A span sent again replaces its list.
import { createHash } from 'node:crypto';
import type { SpanRow } from '../../query/span-columns.js';

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

/** The searchable messages of one span, in order; blank contents are left out. */
export function messageFanout(row: SpanRow): SpanMessage[] {
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
