// Per-chunk enrichment of queried calls: feedback (include_feedback), dereferenced refs
// (expand_columns), costs (include_costs). One store round trip per chunk, not per call.
import type { StoredCall } from '../storage/call-store.js';
import type { Store } from '../storage/store.js';
import type { SummaryExtras } from './call-summary.js';
import { expandCallColumns, type RefValueReader } from './expand-columns.js';

export interface HydrationOptions {
  readonly feedback: boolean;
  readonly costs: boolean;
  readonly expandColumns: readonly string[];
}

export interface CallExtras {
  summary: SummaryExtras;
  replaced: Partial<Record<'inputs' | 'output' | 'attributes', string>>;
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
          list.push(row);
          byRef.set(row.weave_ref, list);
        }
        calls.forEach((c, i) => (extras[i]!.summary.feedback = byRef.get(refs[i]!) ?? []));
      }
      if (opts.expandColumns.length > 0 && refReader) {
        const replaced = await expandCallColumns(calls, opts.expandColumns, refReader);
        replaced.forEach((r, i) => (extras[i]!.replaced = r));
      }
      return extras;
    },
  };
}
