// The signals tests' fixtures: a loopback judge that speaks OpenAI Chat Completions (its verdict
// and a number of 503s to answer first are set by the test), and the objects the Weave SDK
// publishes for a monitor: an LLMStructuredCompletionModel, an LLMAsAJudgeScorer and a Monitor.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hexId, otlpJson } from './agent-spans.js';
import { PROJECT, startTestApp, type TestApp } from './test-app.js';

export interface Judge {
  readonly url: string;
  /** Requests received: body and Authorization header. */
  readonly asked: { body: any; authorization: string | undefined }[];
  /** The content of the next answers (JSON text). */
  verdict: string;
  /** 503s to answer before the next verdicts. */
  unavailable: number;
  close(): void;
}

/** `decide(prompt)`: the verdict for a request whose last message is `prompt` (else `judge.verdict`). */
export async function startJudge(decide?: (prompt: string) => unknown): Promise<Judge> {
  const judge: Judge & { server?: Server } = {
    url: '',
    asked: [],
    verdict: JSON.stringify({ score: 0.9, reason: 'accurate' }),
    unavailable: 0,
    close: () => {
      judge.server?.closeAllConnections();
      judge.server?.close();
    },
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      judge.asked.push({ body, authorization: req.headers.authorization });
      if (judge.unavailable > 0) {
        judge.unavailable--;
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'overloaded' } }));
      }
      const prompt = String(body.messages?.at(-1)?.content ?? '');
      const content = decide === undefined ? judge.verdict : JSON.stringify(decide(prompt));
      const message = { role: 'assistant', content };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'j',
          object: 'chat.completion',
          created: 1,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: 'stop' }],
          usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  judge.server = server;
  (judge as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return judge;
}

const bases = (...b: string[]) => [...b, 'Object', 'BaseModel'];

export async function createObj(t: TestApp, objectId: string, val: Record<string, unknown>, cls?: string) {
  const r = await t.post('/obj/create', {
    obj: { project_id: PROJECT, object_id: objectId, val, ...(cls ? { builtin_object_class: cls } : {}) },
  });
  assert.equal(r.status, 200, r.text);
  return `weave:///${PROJECT}/object/${objectId}:${r.body.digest}`;
}

/** A custom provider `judges` at the judge, its key in the entity's JUDGE_KEY, its model `grader`. */
export async function judgeProvider(t: TestApp, judge: Judge): Promise<void> {
  const set = await t.post('/admin/secrets/set', {
    entity: PROJECT.split('/')[0],
    name: 'JUDGE_KEY',
    value: 'sk-judge',
  });
  assert.equal(set.status, 200, set.text);
  await createObj(t, 'judges', { base_url: `${judge.url}/v1`, api_key_name: 'JUDGE_KEY' }, 'Provider');
  await createObj(t, 'judges-grader', { name: 'grader', provider: 'judges', max_tokens: 100 }, 'ProviderModel');
}

/** A judge (model, scorer) as the SDK publishes it; returns the scorer's ref. */
export async function publishJudge(t: TestApp, name: string, llm: string, prompt: string): Promise<string> {
  const model = await createObj(t, `${name}-model`, {
    _type: 'LLMStructuredCompletionModel',
    name: `${name}-model`,
    description: null,
    llm_model_id: llm,
    default_params: {
      _type: 'LLMStructuredCompletionModelDefaultParams',
      messages_template: [
        {
          _type: 'Message',
          role: 'system',
          content: 'You grade answers.',
          _class_name: 'Message',
          _bases: ['BaseModel'],
        },
      ],
      temperature: 0,
      response_format: 'json_object',
      _class_name: 'LLMStructuredCompletionModelDefaultParams',
      _bases: ['BaseModel'],
    },
    _class_name: 'LLMStructuredCompletionModel',
    _bases: bases('Model'),
  });
  return createObj(t, name, {
    _type: 'LLMAsAJudgeScorer',
    name,
    description: null,
    column_map: null,
    model,
    scoring_prompt: prompt,
    _class_name: 'LLMAsAJudgeScorer',
    _bases: bases('Scorer'),
  });
}

/** An active Monitor (override any field); returns its ref. */
export function publishMonitor(t: TestApp, id: string, scorers: string[], over: Record<string, unknown> = {}) {
  return createObj(t, id, {
    _type: 'Monitor',
    name: id,
    description: null,
    sampling_rate: 1,
    scorers,
    op_names: [`weave:///${PROJECT}/op/predict:*`],
    query: null,
    is_traced: true,
    active: true,
    _class_name: 'Monitor',
    _bases: ['Object', 'BaseModel'],
    ...over,
  });
}

/** A judge, and a test app that may reach it, polls its queue every 100 ms and knows the judge's provider. */
export async function startSignalsApp(): Promise<{ t: TestApp; judge: Judge }> {
  const judge = await startJudge();
  const t = await startTestApp({ outboundAllowedHosts: [new URL(judge.url).host], signals: { pollMs: 100 } });
  await judgeProvider(t, judge);
  return { t, judge };
}

/** Polls `read` until it gives a value (not null), for up to `ms`. */
export async function eventually<T>(what: string, read: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== null) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const msgs = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

/** One turn: an invoke_agent root (ended) with its messages, and a chat span under it. */
export function agentTurn(
  agent: string,
  question: string,
  answer: string,
  o: { project?: string; conversation?: string } = {},
) {
  const traceId = hexId(16);
  const root = hexId(8);
  const start = Date.now();
  const [entity, project] = (o.project ?? PROJECT).split('/') as [string, string];
  const body = otlpJson({ 'wandb.entity': entity, 'wandb.project': project }, [
    {
      traceId,
      spanId: root,
      name: `invoke_agent ${agent}`,
      startMs: start,
      endMs: start + 50,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': agent,
        'gen_ai.conversation.id': o.conversation ?? `conv-${traceId}`,
        'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be kind.' }]),
        'gen_ai.input.messages': msgs('user', question),
        'gen_ai.output.messages': msgs('assistant', answer),
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'chat gpt-4o',
      startMs: start + 1,
      endMs: start + 40,
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' },
    },
  ]);
  return { traceId, body };
}
