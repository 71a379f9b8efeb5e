// Renders a stored call as one CallSchema JSON document. The big JSON columns
// (attributes, inputs, output) are spliced in as stored text, not re-encoded.
import type { StoredCall } from '../../storage/calls/call-store.js';
import { renderSummary, withCosts, type SummaryExtras } from './call-summary.js';
import { formatTimestamp } from '../../time.js';

export interface RenderOptions {
  /** Top-level columns asked for; null = all. Unselected object columns render `{}`, others null. */
  readonly columns: ReadonlySet<string> | null;
  readonly username: (userId: string | null) => string | null;
}

const str = (v: string | null) => (v === null ? 'null' : JSON.stringify(v));
const num = (v: number | null) => (v === null ? 'null' : String(v));
const time = (v: number | null) => (v === null ? 'null' : `"${formatTimestamp(v)}"`);

/**
 * The summary of a call whose summary column was not asked for: empty, except what
 * include_costs / include_feedback asked for, under `weave` (as Weave answers).
 */
function extrasOnly(extras: SummaryExtras): string {
  if (!extras.costs && !extras.feedback) return '{}';
  return `{"weave":${withCosts(extras.feedback ? JSON.stringify({ feedback: extras.feedback }) : '{}', extras.costs)}}`;
}

export function renderCall(
  c: StoredCall,
  opts: RenderOptions,
  extras: SummaryExtras = {},
  replaced: Partial<Record<'inputs' | 'output' | 'attributes', string>> = {},
): string {
  const has = (col: string) => opts.columns === null || opts.columns.has(col);
  const obj = (col: 'attributes' | 'inputs', v: string | null) => (has(col) ? (replaced[col] ?? v ?? '{}') : '{}');
  const summary = has('summary') ? renderSummary(c, extras) : extrasOnly(extras);
  return (
    `{"id":${str(c.id)},"project_id":${str(c.project_id)},"op_name":${str(c.op_name)}` +
    `,"display_name":${str(has('display_name') ? c.display_name || null : null)}` +
    `,"trace_id":${str(c.trace_id)},"parent_id":${str(has('parent_id') ? c.parent_id : null)}` +
    `,"thread_id":${str(has('thread_id') ? c.thread_id : null)},"turn_id":${str(has('turn_id') ? c.turn_id : null)}` +
    `,"started_at":${time(c.started_at)},"attributes":${obj('attributes', c.attributes)},"inputs":${obj('inputs', c.inputs)}` +
    `,"ended_at":${time(has('ended_at') ? c.ended_at : null)},"exception":${str(has('exception') ? c.exception : null)}` +
    `,"output":${has('output') ? (replaced.output ?? c.output ?? 'null') : 'null'},"summary":${summary}` +
    `,"wb_user_id":${str(has('wb_user_id') ? c.wb_user_id : null)},"wb_username":${str(has('wb_user_id') ? opts.username(c.wb_user_id) : null)}` +
    `,"wb_run_id":${str(has('wb_run_id') ? c.wb_run_id : null)},"wb_run_step":${num(has('wb_run_step') ? c.wb_run_step : null)}` +
    `,"wb_run_step_end":${num(has('wb_run_step_end') ? c.wb_run_step_end : null)}` +
    `,"deleted_at":${time(c.deleted_at)},"expire_at":${time(c.expire_at)}` +
    `,"storage_size_bytes":${num(c.storage_size_bytes)},"total_storage_size_bytes":${num(c.total_storage_size_bytes)}}`
  );
}
