// Agent turns for the grouped-read tests: an invoke_agent root and a model call under it, in a
// conversation, with custom attributes on the root; and sending them to a project.
import assert from 'node:assert/strict';
import { hexId, otlpJson, type TestSpan } from './agent-spans.js';
import type { TestApp } from './test-app.js';

type Attrs = Record<string, string | number | boolean>;

export interface AgentTurn {
  readonly traceId: string;
  readonly spans: TestSpan[];
}

/** A turn of `agent` in `conv` at `startMs`: root (1 s, ERROR when `error`) and a chat child (400 ms). */
export function agentTurn(conv: string, agent: string, startMs: number, attrs: Attrs = {}, error = false): AgentTurn {
  const traceId = hexId(16);
  const root = hexId(8);
  const c = { 'gen_ai.conversation.id': conv };
  return {
    traceId,
    spans: [
      {
        traceId,
        spanId: root,
        name: `invoke_agent ${agent}`,
        startMs,
        endMs: startMs + 1000,
        status: error ? 2 : 0,
        attributes: { ...c, 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agent, ...attrs },
      },
      {
        traceId,
        spanId: hexId(8),
        parentSpanId: root,
        name: 'chat gpt-4o',
        startMs: startMs + 100,
        endMs: startMs + 500,
        attributes: { ...c, 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' },
      },
    ],
  };
}

export async function sendTurns(t: TestApp, project: string, turns: readonly AgentTurn[]): Promise<void> {
  const [e, p] = project.split('/') as [string, string];
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson(
      { 'wandb.entity': e, 'wandb.project': p },
      turns.flatMap((x) => x.spans),
    ),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);
}

/** POSTs and expects `status` (200 by default), the body matching `pattern` when given. */
export async function expectPost(t: TestApp, path: string, body: unknown, status = 200, pattern?: RegExp) {
  const r = await t.post(path, body);
  assert.equal(r.status, status, `${JSON.stringify(body)} -> ${r.text}`);
  if (pattern !== undefined) assert.match(r.text, pattern);
  return r.body;
}
