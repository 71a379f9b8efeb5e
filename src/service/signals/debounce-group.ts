// Debounced call monitors (agents.md §4.5): a call's job waits the monitor's timeout, then runs
// only if its call is still the last finished call of its trace (or thread) that the monitor
// watches; an earlier call's job stands down, since the newer call's job, due later, scores the
// group. `all_messages` shows the judge the whole group: `{inputs}` and `{output}` are JSON
// lists over its calls in order (each input by name still the last call's).
import { compileCallsQuery } from '../../query/compile-calls-query.js';
import type { CallStore, StoredCall } from '../../storage/calls/call-store.js';
import type { ActiveMonitor, Debounce } from './active-monitors.js';
import { fromSignals, opMatches } from './call-trigger.js';

/** Most calls of one group the judge is shown. */
const MAX_GROUP = 200;

/** The group's calls, oldest first, when `call` is its last; null when a newer one came. */
export async function debouncedGroup(
  calls: CallStore,
  m: ActiveMonitor & { debounce: Debounce },
  call: StoredCall,
): Promise<StoredCall[] | null> {
  const key = call[m.debounce.field];
  if (key === null || key === '') return [call];
  const q = compileCallsQuery({
    project_id: call.project_id,
    filter: m.debounce.field === 'trace_id' ? { trace_ids: [key] } : { thread_ids: [key] },
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    limit: MAX_GROUP,
  });
  const group: StoredCall[] = [];
  for await (const c of calls.query(q))
    if (c.ended_at !== null && opMatches(m.opNames, c.op_name) && !fromSignals(c.attributes)) group.push(c);
  const newest = group[0];
  if (newest !== undefined && newest.id !== call.id) return null;
  return group.reverse();
}

/** What the prompt sees of a group under `all_messages`. */
export function groupVars(group: readonly StoredCall[]): Record<string, string> {
  return {
    inputs: `[${group.map((c) => c.inputs).join(',')}]`,
    output: JSON.stringify(group.map((c) => (c.output === null ? null : JSON.parse(c.output)))),
  };
}
