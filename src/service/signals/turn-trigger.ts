// Finished agent turns become score jobs (agents.md §4.2): a span written without a parent and
// with an end closes its trace's turn (`weave.genai.turn_ended`). Each active monitor whose
// op_names hold that literal, whose query (over agent span fields) selects the turn's root span,
// and whose sample draws the trace gets one job per scorer. A root span sent again makes the same
// jobs, which the queue already holds.
import { compileQuery } from '../../query/compile-query.js';
import type { Expr } from '../../query/plan.js';
import type { SpanRow } from '../../query/span-columns.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { ScoreJobInput, ScoreJobStore } from '../../storage/signals/score-job-store.js';
import type { SpanStore } from '../../storage/spans/span-store.js';
import { nowMicros } from '../../time.js';
import { type ActiveMonitor, type ActiveMonitors, jobsOf, scoresTurns } from './active-monitors.js';
import { sampled } from './sampling.js';

export interface TurnTriggerDeps {
  readonly spans: SpanStore;
  readonly monitors: ActiveMonitors;
  readonly jobs: ScoreJobStore;
  readonly wake: () => void;
}

const eq = (column: string, value: string): Expr => ({
  kind: 'compare',
  op: 'eq',
  left: { kind: 'field', field: spanFieldCatalog.resolve(column) },
  right: { kind: 'literal', value },
});

/** Whether the monitor's query selects the root span (no query: every turn). */
async function selects(spans: SpanStore, m: ActiveMonitor, root: SpanRow): Promise<boolean> {
  if (m.query === null) return true;
  const where: Expr = {
    kind: 'and',
    items: [
      eq('trace_id', String(root.trace_id)),
      eq('span_id', String(root.span_id)),
      compileQuery(m.query, spanFieldCatalog),
    ],
  };
  const found = await spans.query({
    projectId: String(root.project_id),
    where,
    sort: [],
    limit: 1,
    offset: 0,
    startedAfter: null,
    startedBefore: null,
    columns: ['span_id'],
  });
  return found.total > 0;
}

export const endsTurn = (s: SpanRow) => (s.parent_span_id === null || s.parent_span_id === '') && s.ended_at !== null;

export function createTurnTrigger(deps: TurnTriggerDeps) {
  return async function turnsEnded(projectId: string, roots: readonly SpanRow[]): Promise<number> {
    const monitors = (await deps.monitors.of(projectId)).filter(scoresTurns);
    if (monitors.length === 0 || roots.length === 0) return 0;
    const jobs: ScoreJobInput[] = [];
    const at = nowMicros();
    for (const m of monitors)
      for (const root of roots) {
        const trace = String(root.trace_id);
        if (sampled(m, trace) && (await selects(deps.spans, m, root))) jobs.push(...jobsOf(m, 'agent_turn', trace, at));
      }
    const added = await deps.jobs.enqueue(jobs);
    if (added > 0) deps.wake();
    return added;
  };
}
