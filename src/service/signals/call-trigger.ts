// Finished calls become score jobs: for each active call monitor of the project, the ended
// calls whose op matches one of its op_names (`…:*` any version, a digest that version, a bare
// name any version of that op), that its query selects, and that its sample draws (a hash of
// monitor and call, so a call seen again draws the same), one job per scorer. Runs after the
// calls are written, off the request's path: a failure here is logged, never an ingest error.
import { compileCallsQuery } from '../../query/compile-calls-query.js';
import type { CallStore } from '../../storage/calls/call-store.js';
import type { ScoreJobInput, ScoreJobStore } from '../../storage/signals/score-job-store.js';
import { nowMicros } from '../../time.js';
import { tryParseRef } from '../refs/refs.js';
import { type ActiveMonitor, type ActiveMonitors, jobsOf, scoresTurns } from './active-monitors.js';
import { sampled } from './sampling.js';

/** A call's op as a monitor names it: `weave:///e/p/op/name:digest`, or a plain name (OTel). */
export function opMatches(opNames: readonly string[], callOp: string): boolean {
  const ref = tryParseRef(callOp);
  const name = ref?.kind === 'op' ? ref.name : callOp;
  return opNames.some((want) => {
    if (want === callOp) return true;
    const w = tryParseRef(want);
    if (w === null) return want === name;
    return (
      w.kind === 'op' && ref?.kind === 'op' && w.projectId === ref.projectId && w.name === name && w.digest === '*'
    );
  });
}

/** Calls the scoring itself made (judges and their model calls) are never scored: no loops. */
export function fromSignals(attributes: string): boolean {
  try {
    return (JSON.parse(attributes) as { source?: unknown }).source === 'signals';
  } catch {
    return false;
  }
}

export interface CallTriggerDeps {
  readonly calls: CallStore;
  readonly monitors: ActiveMonitors;
  readonly jobs: ScoreJobStore;
  /** Tells the worker there is work. */
  readonly wake: () => void;
}

async function matching(calls: CallStore, projectId: string, ids: readonly string[], m: ActiveMonitor) {
  const q = compileCallsQuery({
    project_id: projectId,
    filter: { call_ids: [...ids] },
    query: m.query,
    columns: ['id', 'op_name', 'ended_at', 'attributes', 'trace_id', 'thread_id'],
  });
  const out: { id: string; draw: string }[] = [];
  for await (const c of calls.query(q))
    if (c.ended_at !== null && opMatches(m.opNames, c.op_name) && !fromSignals(c.attributes))
      // A debounced monitor draws its sample per group, so that a group is scored whole or not at all.
      out.push({ id: c.id, draw: (m.debounce === null ? null : c[m.debounce.field]) ?? c.id });
  return out;
}

export function createCallTrigger(deps: CallTriggerDeps) {
  return async function callsEnded(projectId: string, callIds: readonly string[]): Promise<number> {
    const monitors = (await deps.monitors.of(projectId)).filter((m) => !scoresTurns(m) && m.opNames.length > 0);
    if (monitors.length === 0 || callIds.length === 0) return 0;
    const jobs: ScoreJobInput[] = [];
    const at = nowMicros();
    for (const m of monitors) {
      // A debounced monitor queues each call to run after the timeout; by then a newer call of
      // its group makes it stand down (score-job.ts), so only the last one is judged.
      const due = m.debounce === null ? at : at + m.debounce.timeoutMs * 1000;
      for (const { id, draw } of await matching(deps.calls, projectId, callIds, m)) {
        if (sampled(m, draw)) jobs.push(...jobsOf(m, 'call', id, at, due));
      }
    }
    const added = await deps.jobs.enqueue(jobs);
    if (added > 0) deps.wake();
    return added;
  };
}
