// What the agent framework tests share: a real Weft on a real port and the model stand-in
// (helpers/model-standin.ts), the OTLP endpoint and headers an exporter sends to, and the
// agent read routes of Weft's HTTP API as plain calls.
import assert from 'node:assert/strict';
import { startWeftServer, type WeftServer } from '../sdk/sdk-harness.js';
import { startModelStandin, type ModelStandin } from './model-standin.js';

export interface FrameworkRig {
  readonly weft: WeftServer;
  readonly model: ModelStandin;
  /** The full URL of Weft's agent span endpoint. */
  readonly tracesUrl: string;
  /** Headers that put an export in `project`. */
  headers(project: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startFrameworkRig(): Promise<FrameworkRig> {
  const weft = await startWeftServer();
  const model = await startModelStandin();
  return {
    weft,
    model,
    tracesUrl: `${weft.url}/agents/otel/v1/traces`,
    headers: (project) => ({ project_id: project }),
    close: async () => {
      await model.close();
      await weft.close();
    },
  };
}

type Row = Record<string, any>;

async function post(rig: FrameworkRig, path: string, body: Record<string, unknown>): Promise<any> {
  const r = await rig.weft.t.post(path, body);
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  return r.body;
}

/** Every span of the project, oldest first (ties by span id), with the raw span. */
export async function spansOf(rig: FrameworkRig, project: string): Promise<Row[]> {
  const body = await post(rig, '/agents/spans/query', {
    project_id: project,
    sort_by: [{ field: 'started_at', direction: 'asc' }],
    limit: 10_000,
    include_details: true,
  });
  return body.spans;
}

export async function agentsOf(rig: FrameworkRig, project: string): Promise<Row[]> {
  const body = await post(rig, '/agents/query', {
    project_id: project,
    sort_by: [{ field: 'agent_name', direction: 'asc' }],
  });
  return body.agents;
}

export async function agentVersionsOf(rig: FrameworkRig, project: string, agent: string): Promise<Row[]> {
  return (await post(rig, '/agents/agent-versions/query', { project_id: project, agent_name: agent })).versions;
}

/**
 * The conversations list as the Agents view asks for it (spans grouped by conversation, latest
 * first): [conversation id, turns, input tokens, output tokens, first user text, last answer].
 */
export async function conversationsOf(rig: FrameworkRig, project: string): Promise<unknown[][]> {
  const body = await post(rig, '/agents/spans/query', {
    project_id: project,
    group_by: [{ source: 'column', key: 'conversation_id', alias: 'conversation_id' }],
    sort_by: [{ field: 'last_seen', direction: 'desc' }],
  });
  return body.groups.map((g: Row) => [
    g.group_keys.conversation_id,
    g.turn_count,
    g.total_input_tokens,
    g.total_output_tokens,
    g.first_message?.text,
    g.last_message?.text,
  ]);
}

export async function traceChat(rig: FrameworkRig, project: string, traceId: string): Promise<Row> {
  return post(rig, '/agents/traces/chat', { project_id: project, trace_id: traceId });
}

export async function conversationChat(rig: FrameworkRig, project: string, conversationId: string): Promise<Row> {
  return post(rig, '/agents/conversations/chat', { project_id: project, conversation_id: conversationId });
}

/** Spans per operation name (null as 'none'), e.g. { invoke_agent: 2, chat: 4, execute_tool: 2 }. */
export function countByOperation(spans: readonly Row[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of spans) {
    const k = s.operation_name ?? 'none';
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** The distinct trace ids of the spans, in order of first appearance. */
export const traceIdsOf = (spans: readonly Row[]): string[] => [...new Set(spans.map((s) => s.trace_id as string))];

/** A chat view's messages as [type, agent, text-ish] triples: the shape tests compare whole. */
export function chatOutline(chat: Row): [string, string | null, unknown][] {
  return chat.messages.map((m: Row) => {
    switch (m.type) {
      case 'user_message':
        return [m.type, m.agent_name, m.user_message.text];
      case 'agent_start':
        return [m.type, m.agent_name, null];
      case 'assistant_message':
        return [m.type, m.agent_name, m.assistant_message.text];
      case 'tool_call':
        return [m.type, m.agent_name, m.tool_call.tool_name];
      default:
        return [m.type, m.agent_name, null];
    }
  });
}

/** The tool_call messages of a chat view as {name, arguments, result} with the JSON parsed. */
export function toolCallsOf(chat: Row): { name: string; arguments: unknown; result: unknown }[] {
  const parse = (v: unknown) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  };
  return chat.messages
    .filter((m: Row) => m.type === 'tool_call')
    .map((m: Row) => ({
      name: m.tool_call.tool_name,
      arguments: parse(m.tool_call.tool_arguments),
      result: parse(m.tool_call.tool_result),
    }));
}
