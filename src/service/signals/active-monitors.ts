// The monitors a project has switched on: the latest version of each Monitor object whose
// `active` is true, read at most every MONITORS_MAX_AGE_MS per project (a monitor activated
// through another server starts scoring within that time; one written through this server
// at once, via `forget`).
import type { ObjectStore, StoredObjectVersion } from '../../storage/objects/object-store.js';
import type { ScoreJobInput, ScoreTargetKind } from '../../storage/signals/score-job-store.js';
import type { Micros } from '../../time.js';
import { stripBookkeeping, TURN_ENDED } from '../objects/monitor-query.js';
import { latestOfClass } from '../objects/object-service.js';
import { refUri } from '../refs/refs.js';

export const MONITORS_MAX_AGE_MS = 2000;
/** A ClassifierMonitor's one job per target, for all of its scorers (classifier-job.ts). */
export const ALL_SCORERS = '*';
/** Projects whose monitors are remembered at once; past it the memory starts over. */
const MAX_PROJECTS = 10_000;

export interface ActiveMonitor {
  readonly projectId: string;
  readonly id: string;
  readonly digest: string;
  /** `weave:///<project>/object/<id>:<digest>`: the trigger_ref of what it writes. */
  readonly ref: string;
  /** Op refs (`…:*` any version) and the finished-turn literal. */
  readonly opNames: readonly string[];
  /** Its query without the SDK's bookkeeping keys, or null. */
  readonly query: { $expr: Record<string, unknown> } | null;
  readonly samplingRate: number;
  /** Scorer object refs. */
  readonly scorers: readonly string[];
  /** A ClassifierMonitor: its judges on one model share one call. */
  readonly classifier: boolean;
  /** Calls only: score a trace's or thread's calls once no newer one came for a while. */
  readonly debounce: Debounce | null;
  /** Who wrote the version: the scores it asks for are written as theirs. */
  readonly userId: string | null;
  readonly createdAt: Micros;
}

/**
 * `scorer_debounce_config` (agents.md §4.5): the calls of one trace (or thread) are scored once,
 * on the last of them, when no newer one ended within `timeoutMs`; `all_messages` shows the
 * judge every call of the group, `last_message` the last one.
 */
export interface Debounce {
  readonly field: 'trace_id' | 'thread_id';
  readonly method: 'last_message' | 'all_messages';
  readonly timeoutMs: number;
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function parseDebounce(v: unknown): Debounce | null {
  if (!isDict(v) || typeof v.timeout_seconds !== 'number' || !(v.timeout_seconds >= 0)) return null;
  return {
    field: v.aggregation_field === 'thread_id' ? 'thread_id' : 'trace_id',
    method: v.aggregation_method === 'all_messages' ? 'all_messages' : 'last_message',
    timeoutMs: Math.min(v.timeout_seconds, 86_400) * 1000,
  };
}

/** A Monitor version as the worker reads it; null when it is off (unless `activeOnly` is false). */
export function parseMonitor(v: StoredObjectVersion, activeOnly = true): ActiveMonitor | null {
  if (v.val === null) return null;
  const val = JSON.parse(v.val) as Dict;
  if (!isDict(val) || (activeOnly && val.active !== true)) return null;
  const [entity, project] = v.project_id.split('/') as [string, string];
  const query = stripBookkeeping(val.query);
  const rate = typeof val.sampling_rate === 'number' ? Math.min(1, Math.max(0, val.sampling_rate)) : 1;
  return {
    projectId: v.project_id,
    id: v.object_id,
    digest: v.digest,
    ref: refUri({
      kind: 'object',
      entity,
      project,
      projectId: v.project_id,
      name: v.object_id,
      digest: v.digest,
      extra: [],
    }),
    opNames: strings(val.op_names),
    query: isDict(query) && isDict(query.$expr) ? { $expr: query.$expr } : null,
    samplingRate: rate,
    scorers: strings(val.scorers),
    debounce: parseDebounce(val.scorer_debounce_config),
    classifier: v.leaf_object_class === 'ClassifierMonitor',
    userId: v.wb_user_id,
    createdAt: v.created_at,
  };
}

export const scoresTurns = (m: ActiveMonitor) => m.opNames.includes(TURN_ENDED);

export function createActiveMonitors(objects: ObjectStore) {
  const cache = new Map<string, { at: number; monitors: Promise<ActiveMonitor[]> }>();
  const load = async (projectId: string) =>
    (await objects.query(latestOfClass(projectId, 'Monitor'))).flatMap((v) => parseMonitor(v) ?? []);
  return {
    of(projectId: string): Promise<ActiveMonitor[]> {
      const hit = cache.get(projectId);
      if (hit !== undefined && Date.now() - hit.at < MONITORS_MAX_AGE_MS) return hit.monitors;
      const monitors = load(projectId);
      if (cache.size >= MAX_PROJECTS) cache.clear();
      cache.set(projectId, { at: Date.now(), monitors });
      monitors.catch(() => cache.delete(projectId));
      return monitors;
    },
    /** A monitor of the project was written here: read them again on next need. */
    forget(projectId: string): void {
      cache.delete(projectId);
    },
  };
}

export type ActiveMonitors = ReturnType<typeof createActiveMonitors>;

/** The jobs a monitor asks for on one target: one per scorer. */
export const jobsOf = (
  m: ActiveMonitor,
  targetKind: ScoreTargetKind,
  targetId: string,
  at: Micros,
  dueAt: Micros = at,
): ScoreJobInput[] =>
  (m.classifier ? [ALL_SCORERS] : m.scorers).map((scorer) => ({
    project_id: m.projectId,
    monitor_id: m.id,
    monitor_digest: m.digest,
    scorer_ref: scorer,
    target_kind: targetKind,
    target_id: targetId,
    created_at: at,
    due_at: dueAt,
  }));
