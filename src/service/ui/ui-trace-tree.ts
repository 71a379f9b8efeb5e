// The trace view's skeleton: every call of one trace, by start time, as small JSON Lines
// rows (no inputs, output or attributes; status and tokens derived here). Weave's
// /calls/stream_query answers full CallSchema rows even for a few columns (~800 bytes a
// call); this answers ~250, so a 50,000-call trace reaches the browser whole in a fraction
// of the time.
import { Readable } from 'node:stream';
import { NotFoundError } from '../../api/errors.js';
import type { UiTraceTreeReq } from '../../api/ui.js';
import type { TraceSkeletonRow } from '../../storage/call-store.js';
import type { Store } from '../../storage/store.js';
import { formatTimestamp } from '../../time.js';
import { callStatus } from '../calls/call-summary.js';
import { usageTokens } from '../costs/llm-usage.js';

function node([
  id,
  parentId,
  opName,
  displayName,
  startedAt,
  endedAt,
  exception,
  summaryText,
]: TraceSkeletonRow): string {
  // Only summaries that may hold usage or error counts are decoded.
  const summary =
    summaryText && (summaryText.includes('"usage"') || summaryText.includes('"status_counts"'))
      ? (JSON.parse(summaryText) as Record<string, unknown>)
      : {};
  return JSON.stringify({
    id,
    parent_id: parentId,
    op_name: opName,
    display_name: displayName || null,
    started_at: formatTimestamp(startedAt),
    ended_at: endedAt === null ? null : formatTimestamp(endedAt),
    status: callStatus({ exception, ended_at: endedAt }, summary),
    tokens: usageTokens(summary),
  });
}

async function traceIdOf(store: Store, req: UiTraceTreeReq): Promise<string> {
  if ('trace_id' in req) return req.trace_id;
  const call = await store.calls.get(req.project_id, req.call_id, { storageSize: false, totalStorageSize: false });
  if (call === null) throw new NotFoundError(`No call ${req.call_id} in ${req.project_id}`);
  return call.trace_id;
}

export async function traceTree(store: Store, req: UiTraceTreeReq): Promise<Readable> {
  // Resolved before the stream starts, so an unknown call is a 404 rather than an empty 200.
  const traceId = await traceIdOf(store, req);
  async function* lines() {
    for await (const rows of store.calls.traceSkeleton(req.project_id, traceId)) yield `${rows.map(node).join('\n')}\n`;
  }
  return Readable.from(lines(), { objectMode: false });
}
