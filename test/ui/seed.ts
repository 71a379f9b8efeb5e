// Test data for the UI, written over HTTP the way the SDKs write it.
import { newId } from '../helpers/calls.js';

export interface SeedCall {
  id: string;
  trace_id: string;
  parent_id?: string;
  op: string;
  started: number;
  ended: number | null;
  inputs?: Record<string, unknown>;
  output?: unknown;
  exception?: string;
  summary?: Record<string, unknown>;
  display_name?: string;
}

export const op = (project: string, name: string) =>
  `weave:///${project}/op/${name}:AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG`;

/** upsert_batch items: a start and (unless running) an end per call. */
export function batchItems(project: string, calls: readonly SeedCall[]): unknown[] {
  return calls.flatMap((c) => {
    const start = {
      mode: 'start',
      req: {
        start: {
          project_id: project,
          id: c.id,
          trace_id: c.trace_id,
          op_name: c.op,
          started_at: new Date(c.started).toISOString(),
          attributes: {},
          inputs: c.inputs ?? {},
          ...(c.parent_id ? { parent_id: c.parent_id } : {}),
          ...(c.display_name ? { display_name: c.display_name } : {}),
        },
      },
    };
    if (c.ended === null) return [start];
    const end = {
      mode: 'end',
      req: {
        end: {
          project_id: project,
          id: c.id,
          ended_at: new Date(c.ended).toISOString(),
          output: c.output ?? null,
          summary: c.summary ?? {},
          ...(c.exception ? { exception: c.exception } : {}),
        },
      },
    };
    return [start, end];
  });
}

export async function upsert(url: string, project: string, calls: readonly SeedCall[], chunk = 2000): Promise<void> {
  for (let i = 0; i < calls.length; i += chunk) {
    const res = await fetch(`${url}/call/upsert_batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ batch: batchItems(project, calls.slice(i, i + chunk)) }),
    });
    if (res.status !== 200) throw new Error(`upsert_batch: ${res.status} ${await res.text()}`);
  }
}

/**
 * One agent-shaped trace: root -> `steps` steps -> `tools` tools -> `llms` LLM calls each
 * (1 + s + s*t + s*t*l calls), in start order.
 */
export function bigTrace(
  project: string,
  steps: number,
  tools: number,
  llms: number,
  t0 = Date.UTC(2026, 10, 20, 12),
): SeedCall[] {
  const trace_id = newId();
  const out: SeedCall[] = [];
  let clock = t0;
  const root: SeedCall = {
    id: newId(),
    trace_id,
    op: op(project, 'agent_run'),
    started: clock,
    ended: 0,
    inputs: { task: 'big' },
  };
  out.push(root);
  for (let s = 0; s < steps; s++) {
    const step: SeedCall = {
      id: newId(),
      trace_id,
      parent_id: root.id,
      op: op(project, 'step'),
      started: ++clock,
      ended: 0,
      inputs: { step: s },
    };
    out.push(step);
    for (let t = 0; t < tools; t++) {
      const tool: SeedCall = {
        id: newId(),
        trace_id,
        parent_id: step.id,
        op: op(project, 'tool'),
        started: ++clock,
        ended: 0,
        inputs: { step: s, tool: t },
      };
      out.push(tool);
      for (let l = 0; l < llms; l++) {
        const started = ++clock;
        out.push({
          id: newId(),
          trace_id,
          parent_id: tool.id,
          op: op(project, 'llm'),
          started,
          ended: started + 1,
          inputs: { step: s, tool: t, llm: l },
          output: 'ok',
          summary: {
            usage: { 'gpt-4o-mini': { requests: 1, prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
          },
        });
        clock = started + 1;
      }
      tool.ended = ++clock;
    }
    step.ended = ++clock;
  }
  root.ended = ++clock;
  return out;
}
