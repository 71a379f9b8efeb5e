// Per-chunk enrichment of queried calls: feedback (include_feedback), dereferenced refs
// (expand_columns), costs (include_costs). One store round trip per chunk, not per call.
import type { StoredCall } from '../../storage/calls/call-store.js';
import type { FeedbackRow } from '../../storage/feedback/feedback-store.js';
import { formatTimestamp } from '../../time.js';
import type { Store } from '../../storage/store.js';
import type { SummaryExtras } from './call-summary.js';
import { expandCallColumns, type RefValueReader } from './expand-columns.js';
import { costsOfCalls } from '../costs/cost-summary.js';

export interface HydrationOptions {
  readonly feedback: boolean;
  readonly costs: boolean;
  readonly expandColumns: readonly string[];
}

export interface CallExtras {
  summary: SummaryExtras;
  replaced: Partial<Record<'inputs' | 'output' | 'attributes', string>>;
}

/** The feedback fields a call's summary.weave.feedback lists (weave-api.md §3.6.5). */
function feedbackSummaryOf(f: FeedbackRow) {
  return {
    id: f.id,
    feedback_type: f.feedback_type,
    weave_ref: f.weave_ref,
    payload: f.payload,
    creator: f.creator,
    created_at: formatTimestamp(f.created_at),
    wb_user_id: f.wb_user_id,
    runnable_ref: f.runnable_ref,
    call_ref: f.call_ref,
    trigger_ref: f.trigger_ref,
    annotation_ref: f.annotation_ref,
  };
}

export const callRef = (projectId: string, callId: string) => `weave:///${projectId}/call/${callId}`;

export function createCallHydrator(store: Store, refReader?: RefValueReader) {
  return {
    async hydrate(projectId: string, calls: readonly StoredCall[], opts: HydrationOptions): Promise<CallExtras[]> {
      const extras: CallExtras[] = calls.map(() => ({ summary: {}, replaced: {} }));
      if (calls.length === 0) return extras;
      if (opts.feedback) {
        const refs = calls.map((c) => callRef(projectId, c.id));
        const rows = await store.feedback.findByWeaveRefs(projectId, refs);
        const byRef = new Map<string, unknown[]>();
        for (const row of rows) {
          const list = byRef.get(row.weave_ref) ?? [];
          list.push(feedbackSummaryOf(row));
          byRef.set(row.weave_ref, list);
        }
        for (let i = 0; i < calls.length; i++) extras[i]!.summary.feedback = byRef.get(refs[i]!) ?? [];
      }
      if (opts.costs) {
        const costs = await costsOfCalls(store.costs, projectId, calls);
        costs.forEach((c, i) => {
          if (c) extras[i]!.summary.costs = c;
        });
      }
      if (opts.expandColumns.length > 0 && refReader) {
        const replaced = await expandCallColumns(calls, opts.expandColumns, refReader);
        replaced.forEach((r, i) => {
          extras[i]!.replaced = r;
        });
      }
      return extras;
    },
  };
}
