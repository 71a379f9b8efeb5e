// Seeded GenAI agent turns, as an OpenTelemetry GenAI exporter sends them: each turn one
// trace, an invoke_agent root (the user's message in, the answer out) over model calls
// (`chat`, gpt-4o / claude models, tokens, input and output messages with text) and the tool
// calls between them; every span carries its conversation id. Conversations belong to one of
// 50 agents x 4 versions (skewed: a few agents do most of the work), hold a few turns each
// (geometric), and a few of them many (LONG_TURNS), all within AGENT_DAYS before AGENT_END_MS.
// Contract: the same plan gives the same spans (ids, times, text) on every machine; a change
// to what is generated must bump AGENT_GEN_VERSION (the cached databases are keyed by it).
import type { OtlpSpan } from '../../src/ingest/otlp/otlp-spans.js';
import { Rng } from './rng.js';
import { text, words } from './text.js';

export const AGENT_GEN_VERSION = 1;
export const AGENTS_PROJECT = 'bench-entity/bench-agents';
export const AGENT_END_MS = Date.parse('2026-10-01T00:00:00.000Z');
export const AGENT_DAYS = 30;
const START_MS = AGENT_END_MS - AGENT_DAYS * 86_400_000;
/** Spans per conversation on average: 1,000,000 spans are 100,000 conversations. */
const SPANS_PER_CONVERSATION = 10;
/** Turns of the long conversations (the chat and UI figures read them), by id `conv-long-<turns>`. */
export const LONG_TURNS = [1000, 300, 250, 200] as const;
export const longConversationId = (turns: number) => `conv-long-${turns}`;
/** Words planted in user messages for the search figures: rare ones, and a phrase (~1% of them). */
export const RARE_WORDS = ['zanzibar', 'quetzalcoatl'] as const;
export const PHRASE = 'flight to lisbon';

const AGENTS = Array.from({ length: 50 }, (_, i) => `agent-${String(i).padStart(2, '0')}`);
const VERSIONS = ['v1', 'v2', 'v3', 'v4'];
const MODELS = [
  { model: 'gpt-4o', provider: 'openai' },
  { model: 'gpt-4o-mini', provider: 'openai' },
  { model: 'claude-sonnet-4-20250514', provider: 'anthropic' },
  { model: 'claude-3-5-haiku-20241022', provider: 'anthropic' },
];
const TOOLS = ['search_docs', 'get_order', 'lookup_customer', 'book_flight', 'get_weather', 'run_sql'];
/** Messages of earlier turns a model call sees again (a windowed history, as most agents keep). */
const HISTORY = 6;

export interface AgentTurn {
  readonly conversationId: string;
  readonly traceId: string;
  readonly spans: OtlpSpan[];
}

type Attr = Record<string, string | number>;
const parts = (role: string, content: string) => JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);
const history = (msgs: readonly { role: string; content: string }[]) =>
  JSON.stringify(msgs.map((m) => ({ role: m.role, parts: [{ type: 'text', content: m.content }] })));

function span(
  traceId: string,
  spanId: string,
  parent: string | null,
  name: string,
  startMs: number,
  endMs: number,
  attributes: Attr,
  error = false,
): OtlpSpan {
  return {
    traceId,
    spanId,
    parentSpanId: parent,
    traceState: '',
    name,
    kind: parent === null ? 2 : 3,
    startUs: Math.round(startMs * 1000),
    endUs: Math.round(endMs * 1000),
    attributes,
    events: [],
    links: [],
    status: error ? { code: 2, message: 'tool failed' } : { code: 0, message: '' },
    scope: { name: 'bench-genai', version: '1' },
  };
}

function userMessage(rng: Rng): string {
  let s = text(rng, rng.int(60, 220));
  if (rng.chance(0.01)) s += ` I need a ${PHRASE} next week.`;
  if (rng.chance(0.0005)) s += ` Also, what about ${rng.pick(RARE_WORDS)}?`;
  return s;
}

/** One turn of a conversation (mutating its history), its spans in start order. */
function turn(
  rng: Rng,
  conv: { id: string; name: string; agent: string; version: string; history: { role: string; content: string }[] },
  atMs: number,
): AgentTurn {
  const traceId = rng.hex(32);
  const root = rng.hex(16);
  const question = userMessage(rng);
  const common: Attr = { 'gen_ai.conversation.id': conv.id };
  const { model, provider } = rng.pick(MODELS);
  const tools = rng.float() < 0.35 ? 0 : rng.chance(0.77) ? 1 : 2;
  const context = [...conv.history.slice(-HISTORY), { role: 'user', content: question }];
  const spans: OtlpSpan[] = [];
  let t = atMs + rng.int(2, 20);
  let answer = '';
  for (let step = 0; step <= tools; step++) {
    const last = step === tools;
    const callId = `call_${rng.hex(12)}`;
    const tool = rng.pick(TOOLS);
    const args = JSON.stringify({ query: words(rng, 3), id: rng.int(1, 99_999) });
    const out = last ? text(rng, rng.int(80, 500)) : `Let me check with ${tool}.`;
    const end = t + rng.int(300, 4000);
    spans.push(
      span(traceId, rng.hex(16), root, `chat ${model}`, t, end, {
        ...common,
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': model,
        'gen_ai.response.model': model,
        'gen_ai.usage.input_tokens': 150 + 120 * context.length + rng.int(0, 400),
        'gen_ai.usage.output_tokens': rng.int(10, 600),
        'gen_ai.system_instructions': JSON.stringify([
          { type: 'text', content: `You are ${conv.agent}, a helpful assistant.` },
        ]),
        'gen_ai.input.messages': history(context),
        'gen_ai.output.messages': last
          ? parts('assistant', out)
          : JSON.stringify([
              {
                role: 'assistant',
                parts: [
                  { type: 'text', content: out },
                  { type: 'tool_call', id: callId, name: tool, arguments: args },
                ],
              },
            ]),
        'gen_ai.response.finish_reasons': last ? 'stop' : 'tool_calls',
      }),
    );
    t = end + rng.int(1, 10);
    if (last) {
      answer = out;
      break;
    }
    const result = JSON.stringify({ ok: true, rows: rng.int(0, 20), summary: text(rng, rng.int(40, 200)) });
    const toolEnd = t + rng.int(20, 2000);
    spans.push(
      span(
        traceId,
        rng.hex(16),
        root,
        `execute_tool ${tool}`,
        t,
        toolEnd,
        {
          ...common,
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': tool,
          'gen_ai.tool.type': 'function',
          'gen_ai.tool.call.id': callId,
          'gen_ai.tool.call.arguments': args,
          'gen_ai.tool.call.result': result,
        },
        rng.chance(0.01),
      ),
    );
    context.push({ role: 'assistant', content: out }, { role: 'tool', content: result });
    t = toolEnd + rng.int(1, 10);
  }
  spans.unshift(
    span(traceId, root, null, `invoke_agent ${conv.agent}`, atMs, t + rng.int(1, 20), {
      ...common,
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': conv.agent,
      'gen_ai.agent.version': conv.version,
      'gen_ai.conversation.name': conv.name,
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': model,
      'gen_ai.input.messages': parts('user', question),
      'gen_ai.output.messages': parts('assistant', answer),
    }),
  );
  conv.history.push({ role: 'user', content: question }, { role: 'assistant', content: answer });
  if (conv.history.length > HISTORY) conv.history.splice(0, conv.history.length - HISTORY);
  return { conversationId: conv.id, traceId, spans };
}

/** Mean spans of a turn: 0.35 x 2 + 0.65 x (0.77 x 4 + 0.23 x 6). */
const SPANS_PER_TURN = 0.35 * 2 + 0.65 * (0.77 * 4 + 0.23 * 6);

/**
 * About `spans` spans in spans / 10 conversations, conversation by conversation (each one's
 * turns oldest first); the long conversations first.
 */
export function* generateAgentTurns(plan: { seed: string; spans: number }): Generator<AgentTurn> {
  const rng = new Rng(`${plan.seed}:agents:v${AGENT_GEN_VERSION}`);
  const conversations = Math.max(LONG_TURNS.length + 1, Math.round(plan.spans / SPANS_PER_CONVERSATION));
  // Skewed agents: agent i is picked with weight 1 / (i + 1).
  const weights = AGENTS.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const agent = (r: Rng) => {
    let x = r.float() * total;
    for (let i = 0; i < AGENTS.length; i++) if ((x -= weights[i]!) < 0) return AGENTS[i]!;
    return AGENTS[AGENTS.length - 1]!;
  };
  let spans = 0;
  for (let c = 0; c < conversations; c++) {
    const r = rng.fork(`conv-${c}`);
    const long = LONG_TURNS[c];
    const left = conversations - c;
    const mean = Math.max(1, (plan.spans - spans) / (left * SPANS_PER_TURN));
    const turns = long ?? Math.min(60, 1 + Math.floor(-Math.log(1 - r.float()) * (mean - 1)));
    const id = long === undefined ? `conv-${r.hex(16)}` : longConversationId(long);
    const conv = { id, name: words(r, 4), agent: agent(r), version: r.pick(VERSIONS), history: [] };
    const gapMs = long === undefined ? 0 : ((AGENT_DAYS - 1) * 86_400_000) / long;
    let at = long === undefined ? START_MS + r.float() * (AGENT_DAYS * 86_400_000 - 7_200_000) : START_MS + 3_600_000;
    for (let k = 0; k < turns; k++) {
      const t = turn(r, conv, at);
      spans += t.spans.length;
      yield t;
      at += long === undefined ? r.int(20_000, 600_000) : gapMs;
    }
  }
}

/** OTLP protobuf message objects (ExportTraceServiceRequest.fromObject) of these spans. */
export function otlpMessage(spans: readonly OtlpSpan[]) {
  const value = (v: unknown) =>
    typeof v === 'number' ? (Number.isInteger(v) ? { intValue: v } : { doubleValue: v }) : { stringValue: String(v) };
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bench-agents' } }] },
        scopeSpans: [
          {
            scope: { name: 'bench-genai', version: '1' },
            spans: spans.map((s) => ({
              traceId: Buffer.from(s.traceId, 'hex'),
              spanId: Buffer.from(s.spanId, 'hex'),
              ...(s.parentSpanId ? { parentSpanId: Buffer.from(s.parentSpanId, 'hex') } : {}),
              name: s.name,
              kind: s.kind,
              startTimeUnixNano: (BigInt(s.startUs) * 1000n).toString(),
              endTimeUnixNano: (BigInt(s.endUs) * 1000n).toString(),
              attributes: Object.entries(s.attributes).map(([key, v]) => ({ key, value: value(v) })),
              status: s.status,
            })),
          },
        ],
      },
    ],
  };
}
