// The trace view's skeleton: every call of one trace, by start time, as small JSON Lines
// rows (no inputs, output or attributes; status, tokens, cost and models derived here). Weave's
// /calls/stream_query answers full CallSchema rows even for a few columns (~800 bytes a
// call); this answers ~250, so a 50,000-call trace reaches the browser whole in a fraction
// of the time.
import { Readable } from 'node:stream';
import { NotFoundError } from '../../api/errors.js';
import type { UiTraceTreeReq } from '../../api/ui.js';
import type { TraceSkeletonRow } from '../../storage/calls/call-store.js';
import type { Store } from '../../storage/store.js';
import { formatTimestamp } from '../../time.js';
import { callStatus } from '../calls/call-summary.js';
import { tokensOf, usageOfSummary } from '../costs/llm-usage.js';
import { createUsageCostMeter, type UsageCostMeter } from '../costs/usage-cost-meter.js';

/** A row with its summary decoded: only summaries that may hold usage or error counts are. */
function decode(row: TraceSkeletonRow) {
  const text = row[7];
  const summary =
    text && (text.includes('"usage"') || text.includes('"status_counts"'))
      ? (JSON.parse(text) as Record<string, unknown>)
      : {};
  return { row, summary, usage: usageOfSummary(summary) };
}

function node({ row, summary, usage }: ReturnType<typeof decode>, meter: UsageCostMeter): string {
  const [id, parentId, opName, displayName, startedAt, endedAt, exception] = row;
  return JSON.stringify({
    id,
    parent_id: parentId,
    op_name: opName,
    display_name: displayName || null,
    started_at: formatTimestamp(startedAt),
    ended_at: endedAt === null ? null : formatTimestamp(endedAt),
    status: callStatus({ exception, ended_at: endedAt }, summary),
    // Decoded once: the usage map gives tokens, cost and models.
    tokens:
      typeof summary.usage === 'object' && summary.usage !== null && !Array.isArray(summary.usage)
        ? tokensOf(usage)
        : null,
    cost_usd: usage.size === 0 ? null : meter.costOf(usage, startedAt),
    models: [...usage.keys()],
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
  const meter = createUsageCostMeter(store.costs, req.project_id);
  async function* lines() {
    for await (const rows of store.calls.traceSkeleton(req.project_id, traceId)) {
      const decoded = rows.map(decode);
      await meter.load(new Set(decoded.flatMap((d) => [...d.usage.keys()])));
      yield `${decoded.map((d) => node(d, meter)).join('\n')}\n`;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
