// The playground's requests, all through the public API: the models a project can call
// (/completions/models), a streamed completion (/completions/create_stream), the call it
// recorded (/call/read, with costs), the draft's sources (a call, an agent span, a prompt
// version) and MessagesPrompt versions (/objs/query, /obj/read, /obj/create).
import { useQuery } from '@tanstack/react-query';
import { postJson, streamJsonl } from '../api/client';
import type {
  AgentSpansQueryReq,
  AgentSpansQueryRes,
  Call,
  CallReadReq,
  CompletionsCreateReq,
  CompletionsModelsReq,
  CompletionsModelsRes,
  ObjCreateReq,
  ObjCreateRes,
  ObjQueryReq,
  ObjQueryRes,
  ObjReadReq,
  ObjReadRes,
} from '../api/types';
import { and, eq } from '../agents/agentsApi';
import { callToPlayground } from './callToPlayground';
import type { DraftMessage, PlaygroundDraft } from './playgroundDraft';
import { openAiMessage } from './playgroundDraft';
import { spanToPlayground } from './spanToPlayground';

export function useCompletionModels(projectId: string) {
  return useQuery({
    queryKey: ['completion-models', projectId],
    queryFn: ({ signal }) =>
      postJson<CompletionsModelsRes>(
        '/completions/models',
        { project_id: projectId } satisfies CompletionsModelsReq,
        signal,
      ),
  });
}

export const readCall = async (projectId: string, id: string, signal?: AbortSignal): Promise<Call | null> =>
  (
    await postJson<{ call: Call | null }>(
      '/call/read',
      { project_id: projectId, id, include_costs: true } satisfies CallReadReq,
      signal,
    )
  ).call;

/** Streams one completion: each line as it arrives. Tracked, so the run is a call of the project. */
export function streamCompletion(
  projectId: string,
  inputs: CompletionsCreateReq['inputs'],
  onLine: (line: Record<string, unknown>) => void,
  signal: AbortSignal,
): Promise<void> {
  const req: CompletionsCreateReq = { project_id: projectId, inputs, track_llm_call: true, source: 'playground' };
  return streamJsonl<Record<string, unknown>>(
    '/completions/create_stream',
    req,
    (rows) => {
      for (const r of rows) onLine(r);
    },
    signal,
  );
}

/** `weave:///entity/project/object/name:digest` -> its name and digest (null: no object ref). */
export function parseObjectRef(ref: string): { name: string; digest: string } | null {
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/object\/(.+):([^:/]+)$/.exec(ref);
  return m ? { name: decodeURIComponent(m[1]!), digest: m[2]! } : null;
}

export const objectRef = (projectId: string, name: string, digest: string) =>
  `weave:///${projectId}/object/${encodeURIComponent(name)}:${digest}`;

export interface LoadedPrompt {
  /** As given: a weave:/// ref, `name:version` or `name` (what inputs.prompt takes). */
  ref: string;
  name: string;
  digest: string;
  versionIndex: number;
  messages: DraftMessage[];
}

/** A prompt as inputs.prompt names it: a weave:/// ref, `name:version` or `name` (its latest). */
function promptAddress(ref: string): { name: string; digest: string } {
  const at = parseObjectRef(ref);
  if (at !== null) return at;
  const colon = ref.lastIndexOf(':');
  return colon < 0 ? { name: ref, digest: 'latest' } : { name: ref.slice(0, colon), digest: ref.slice(colon + 1) };
}

export async function readPrompt(projectId: string, ref: string, signal?: AbortSignal): Promise<LoadedPrompt> {
  const at = promptAddress(ref);
  const req: ObjReadReq = { project_id: projectId, object_id: at.name, digest: at.digest };
  const { obj } = await postJson<ObjReadRes>('/obj/read', req, signal);
  const val = obj.val as { messages?: unknown } | null;
  const draft = callToPlayground({ messages: Array.isArray(val?.messages) ? val.messages : [] });
  return {
    ref,
    name: obj.object_id,
    digest: obj.digest,
    versionIndex: obj.version_index,
    messages: draft?.messages ?? [],
  };
}

/** Where the draft starts: a call, an agent span or nothing (the prompt is loaded apart). */
export type DraftSource = { kind: 'call'; id: string } | { kind: 'span'; traceId: string; spanId: string } | null;

async function sourceDraft(projectId: string, source: DraftSource, signal: AbortSignal) {
  if (source === null) return null;
  if (source.kind === 'call') {
    const call = await readCall(projectId, source.id, signal);
    if (call === null) throw new Error(`No call ${source.id} in ${projectId}`);
    const draft = callToPlayground(call.inputs);
    if (draft === null) throw new Error(`Call ${source.id} holds no model request (no messages or contents)`);
    return draft;
  }
  const req: AgentSpansQueryReq = {
    project_id: projectId,
    query: and(eq('trace_id', source.traceId), eq('span_id', source.spanId)),
    limit: 1,
  };
  const span = (await postJson<AgentSpansQueryRes>('/agents/spans/query', req, signal)).spans[0];
  if (span === undefined) throw new Error(`No span ${source.spanId} in trace ${source.traceId}`);
  return spanToPlayground(span);
}

export function useSourceDraft(projectId: string, source: DraftSource) {
  return useQuery<PlaygroundDraft | null>({
    queryKey: ['playground-source', projectId, source],
    queryFn: ({ signal }) => sourceDraft(projectId, source, signal),
    staleTime: Infinity,
    gcTime: 0,
  });
}

export function usePrompt(projectId: string, ref: string | undefined) {
  return useQuery({
    queryKey: ['playground-prompt', projectId, ref],
    queryFn: ({ signal }) => readPrompt(projectId, ref!, signal),
    enabled: ref !== undefined,
    staleTime: Infinity,
  });
}

/** The latest version of every MessagesPrompt (a StringPrompt has no messages to lead with). */
export function usePromptList(projectId: string, enabled: boolean) {
  const req: ObjQueryReq = {
    project_id: projectId,
    filter: { base_object_classes: ['Prompt'], leaf_object_classes: ['MessagesPrompt'], latest_only: true },
    sort_by: [{ field: 'object_id', direction: 'asc' }],
    metadata_only: true,
  };
  return useQuery({
    queryKey: ['playground-prompts', projectId],
    queryFn: ({ signal }) => postJson<ObjQueryRes>('/objs/query', req, signal).then((r) => r.objs),
    enabled,
  });
}

export function usePromptVersions(projectId: string, name: string | null) {
  const req: ObjQueryReq = {
    project_id: projectId,
    filter: { object_ids: [name ?? ''] },
    sort_by: [{ field: 'created_at', direction: 'desc' }],
    metadata_only: true,
  };
  return useQuery({
    queryKey: ['playground-prompt-versions', projectId, name],
    queryFn: ({ signal }) =>
      postJson<ObjQueryRes>('/objs/query', req, signal).then((r) =>
        [...r.objs].sort((a, b) => b.version_index - a.version_index),
      ),
    enabled: name !== null,
  });
}

/** Saves messages as a new version of the MessagesPrompt `name`, as the weave SDK publishes one; its ref. */
export async function savePrompt(projectId: string, name: string, messages: DraftMessage[]): Promise<string> {
  const req: ObjCreateReq = {
    obj: {
      project_id: projectId,
      object_id: name,
      val: {
        _type: 'MessagesPrompt',
        _class_name: 'MessagesPrompt',
        _bases: ['Prompt', 'Object', 'BaseModel'],
        name,
        description: null,
        messages: messages.map(openAiMessage),
      },
    },
  };
  const res = await postJson<ObjCreateRes>('/obj/create', req);
  return objectRef(projectId, res.object_id, res.digest);
}
