// The order of a turn's spans in its chat (chat-view.ts): siblings by start, then causal order
// where clocks cannot tell or disagree.
import type { SpanRow } from '../../query/span-columns.js';

/** A span's wall clock in whole milliseconds, null while it is open. */
export const durationMs = (s: SpanRow) =>
  typeof s.ended_at === 'number' ? Math.max(0, Math.floor((s.ended_at - Number(s.started_at)) / 1000)) : null;

/**
 * Siblings by start, then causal order where times cannot tell: OpenTelemetry JS starts a span
 * at Date.now() (whole milliseconds) and measures its duration finely, so a model call that
 * answers a tool result can start "at the same time" as the call that asked for it.
 */
export function sortSiblings(spans: SpanRow[], callIds: ReadonlySet<string>): SpanRow[] {
  const sorted = [...spans].sort((a, b) => {
    const d = Number(a.started_at) - Number(b.started_at);
    if (d !== 0) return d;
    const la = (durationMs(a) ?? 0) - (durationMs(b) ?? 0);
    if (la !== 0) return -la;
    return String(a.span_id) < String(b.span_id) ? -1 : 1;
  });
  // A model call whose input answers a call id another sibling asked for comes after that sibling.
  for (const id of callIds) {
    const asker = sorted.find(
      (s) => s.operation_name !== 'execute_tool' && String(s.output_messages ?? '').includes(id),
    );
    if (asker === undefined) continue;
    for (const answer of sorted.filter(
      (s) =>
        s !== asker &&
        s.operation_name !== 'execute_tool' &&
        Number(s.started_at) <= Number(asker.started_at) + 1000 &&
        String(s.input_messages ?? '').includes(id),
    )) {
      if (sorted.indexOf(answer) > sorted.indexOf(asker)) continue;
      sorted.splice(sorted.indexOf(answer), 1);
      sorted.splice(sorted.indexOf(asker) + 1, 0, answer);
    }
  }
  // Causal order: a tool execution right after the one model span that asked for its call id.
  for (const tool of sorted.filter(
    (s) => (s.operation_name === 'execute_tool' || s.operation_name === 'invoke_agent') && s.tool_call_id !== null,
  )) {
    const id = String(tool.tool_call_id);
    const askers = sorted.filter(
      (s) => s !== tool && s.operation_name !== 'execute_tool' && String(s.output_messages ?? '').includes(id),
    );
    if (askers.length !== 1) continue;
    sorted.splice(sorted.indexOf(tool), 1);
    sorted.splice(sorted.indexOf(askers[0]!) + 1, 0, tool);
  }
  return sorted;
}
