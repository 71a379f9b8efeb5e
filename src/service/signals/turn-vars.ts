// What a judge's prompt sees of an agent turn (agents.md §4.3): `{input_messages}`,
// `{output_messages}`, `{system_instructions}` and `{agent_name}`, from the turn's root span,
// and Weft's `{tool_calls}` (each tool span as `name(arguments) -> result`, in order),
// else from the first span that carries input (and system instructions) and the last that
// carries output. Messages read as `role: text` lines; parts that are not text as their JSON.
import type { SpanRow } from '../../query/span-columns.js';
import { turnRoot } from '../agents/chat-view.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON column holding a list, as the list (else empty). */
export function jsonList(v: string | number | null | undefined): unknown[] {
  if (typeof v !== 'string' || v === '') return [];
  try {
    const x = JSON.parse(v) as unknown;
    return Array.isArray(x) ? x : [];
  } catch {
    return [];
  }
}

const partText = (p: unknown): string =>
  typeof p === 'string'
    ? p
    : isDict(p) && typeof p.content === 'string'
      ? p.content
      : isDict(p) && typeof p.text === 'string'
        ? p.text
        : JSON.stringify(p);

function messageText(m: unknown): string {
  if (!isDict(m)) return partText(m);
  const body = Array.isArray(m.parts) ? m.parts.map(partText).join('\n') : partText(m.content ?? '');
  return typeof m.role === 'string' ? `${m.role}: ${body}` : body;
}

export function turnVars(rows: readonly SpanRow[]): Record<string, string> {
  const root = turnRoot(rows);
  const byStart = [...rows].sort((a, b) => Number(a.started_at ?? 0) - Number(b.started_at ?? 0));
  const pick = (column: string, last: boolean): unknown[] => {
    if (root !== undefined && jsonList(root[column]).length > 0) return jsonList(root[column]);
    const found = (last ? [...byStart].reverse() : byStart).find((r) => jsonList(r[column]).length > 0);
    return found === undefined ? [] : jsonList(found[column]);
  };
  return {
    input_messages: pick('input_messages', false).map(messageText).join('\n'),
    output_messages: pick('output_messages', true).map(messageText).join('\n'),
    system_instructions: pick('system_instructions', false).map(partText).join('\n'),
    agent_name: String(root?.agent_name ?? root?.owner_agent_name ?? ''),
    tool_calls: byStart
      .filter((r) => typeof r.tool_name === 'string' && r.tool_name !== '')
      .map((r) => `${r.tool_name}(${r.tool_call_arguments ?? ''}) -> ${r.tool_call_result ?? ''}`)
      .join('\n'),
  };
}
