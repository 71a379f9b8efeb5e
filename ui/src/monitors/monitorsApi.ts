// The Monitors view's requests, all through the public API: the project's Monitor objects
// (/objs/query, latest versions) and the scorers and judge models they name (/refs/read_batch),
// each monitor's health (/signals/status), the preset signals (/signals/presets), and the
// writes: publish a monitor with its scorer (/signals/publish; again: new versions), switch one
// on or off as the Weave SDK does (its latest value written again with `active` flipped, through
// /obj/read and /obj/create) and backfill it (/signals/backfill).
import { useQuery } from '@tanstack/react-query';
import { postJson } from '../api/client';
import type {
  ObjCreateReq,
  ObjCreateRes,
  ObjQueryReq,
  ObjQueryRes,
  ObjReadReq,
  ObjReadRes,
  SignalsBackfillReq,
  SignalsBackfillRes,
  SignalsPresetsReq,
  SignalsPresetsRes,
  SignalsPublishReq,
  SignalsPublishRes,
  SignalsStatusReq,
  SignalsStatusRes,
} from '../api/types';
import { isDict } from '../isDict';

/** The op_names entry of a monitor that scores agent turns. */
export const TURN_ENDED = 'weave.genai.turn_ended';

export interface MonitorVal {
  name?: string;
  description?: string | null;
  sampling_rate?: number;
  scorers?: string[];
  op_names?: string[];
  query?: unknown;
  active?: boolean;
}

export interface Monitor {
  id: string;
  digest: string;
  ref: string;
  createdAt: string;
  versionIndex: number;
  val: MonitorVal;
}

export interface ScorerInfo {
  ref: string;
  /** LLMAsAJudgeScorer, RemoteScorer… (null: unreadable). */
  className: string | null;
  val: Record<string, unknown>;
  /** A judge's llm_model_id. */
  model: string | null;
}

export const isTurnMonitor = (m: MonitorVal) => (m.op_names ?? []).includes(TURN_ENDED);

export async function listMonitors(projectId: string, signal?: AbortSignal): Promise<Monitor[]> {
  const req: ObjQueryReq = {
    project_id: projectId,
    filter: { base_object_classes: ['Monitor'], latest_only: true },
    sort_by: [{ field: 'object_id', direction: 'asc' }],
  };
  const { objs } = await postJson<ObjQueryRes>('/objs/query', req, signal);
  return objs.map((o) => ({
    id: o.object_id,
    digest: o.digest,
    ref: `weave:///${projectId}/object/${o.object_id}:${o.digest}`,
    createdAt: o.created_at,
    versionIndex: o.version_index,
    val: (isDict(o.val) ? o.val : {}) as MonitorVal,
  }));
}

const readRefs = async (refs: string[], signal?: AbortSignal) =>
  refs.length === 0 ? [] : (await postJson<{ vals: unknown[] }>('/refs/read_batch', { refs }, signal)).vals;

const classOf = (v: Record<string, unknown>) =>
  typeof v._class_name === 'string' ? v._class_name : typeof v._type === 'string' ? v._type : null;

/** The scorers the refs name, with each judge's model id, by ref. */
export async function readScorers(refs: readonly string[], signal?: AbortSignal): Promise<Map<string, ScorerInfo>> {
  const unique = [...new Set(refs)];
  const vals = await readRefs(unique, signal);
  const scorers = unique.map((ref, i): ScorerInfo => {
    const v = vals[i];
    return { ref, className: isDict(v) ? classOf(v) : null, val: isDict(v) ? v : {}, model: null };
  });
  // A judge's model is an LLMStructuredCompletionModel ref (or an inline value).
  const modelRefs = scorers.map((s) => s.val.model).filter((m): m is string => typeof m === 'string');
  const models = await readRefs(modelRefs, signal);
  const modelOf = new Map(modelRefs.map((r, i) => [r, models[i]]));
  for (const s of scorers) {
    const m = typeof s.val.model === 'string' ? modelOf.get(s.val.model) : s.val.model;
    if (isDict(m) && typeof m.llm_model_id === 'string') s.model = m.llm_model_id;
  }
  return new Map(scorers.map((s) => [s.ref, s]));
}

export function useMonitors(projectId: string) {
  return useQuery({
    queryKey: ['monitors', projectId],
    queryFn: async ({ signal }) => {
      const monitors = await listMonitors(projectId, signal);
      const scorers = await readScorers(
        monitors.flatMap((m) => m.val.scorers ?? []),
        signal,
      );
      return { monitors, scorers };
    },
  });
}

/** Each monitor's health, by monitor id; polled while the view is open. */
export function useMonitorHealth(projectId: string) {
  return useQuery({
    queryKey: ['monitor-health', projectId],
    queryFn: async ({ signal }) => {
      const res = await postJson<SignalsStatusRes>(
        '/signals/status',
        { project_id: projectId } satisfies SignalsStatusReq,
        signal,
      );
      return new Map(res.monitors.map((h) => [h.monitor_id, h]));
    },
    refetchInterval: 3000,
  });
}

export function usePresets(projectId: string) {
  return useQuery({
    queryKey: ['signal-presets', projectId],
    queryFn: async ({ signal }) =>
      (
        await postJson<SignalsPresetsRes>(
          '/signals/presets',
          { project_id: projectId } satisfies SignalsPresetsReq,
          signal,
        )
      ).presets,
    staleTime: Infinity,
  });
}

export const publishMonitor = (req: SignalsPublishReq) => postJson<SignalsPublishRes>('/signals/publish', req);

/** Switches a monitor on or off: its latest value written again with `active` changed. */
export async function setMonitorActive(projectId: string, monitorId: string, active: boolean): Promise<void> {
  const read: ObjReadReq = { project_id: projectId, object_id: monitorId, digest: 'latest' };
  const { obj } = await postJson<ObjReadRes>('/obj/read', read);
  if (!isDict(obj.val)) throw new Error(`${monitorId} is not an object`);
  const req: ObjCreateReq = {
    obj: { project_id: projectId, object_id: monitorId, val: { ...obj.val, active } },
  };
  await postJson<ObjCreateRes>('/obj/create', req);
}

export const backfillMonitor = (req: SignalsBackfillReq) => postJson<SignalsBackfillRes>('/signals/backfill', req);

/** The project's op names (latest versions), offered to call monitors. */
export function useOpNames(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['op-names', projectId],
    enabled,
    queryFn: async ({ signal }) => {
      const req: ObjQueryReq = {
        project_id: projectId,
        filter: { is_op: true, latest_only: true },
        metadata_only: true,
      };
      return (await postJson<ObjQueryRes>('/objs/query', req, signal)).objs.map((o) => o.object_id).sort();
    },
  });
}
