// SDK-shaped call traffic, generated from a seed (same seed and plan -> same items, byte
// for byte). Shapes follow the recorded TS SDK sessions (test/fixtures/sdk-captures/):
// op refs `weave:///<entity>/<project>/op/<name>:<digest>`, attributes
// {weave:{client_version, source}}, ~1 KB inputs and outputs, millisecond ISO times, LLM
// calls with `summary.usage[<model>]` rolled up into every ancestor (as the SDK's
// processSummary does), a few exceptions, and items in execution order (start, children,
// end), so a batch mixes starts and ends of several traces as the SDK's queue does.
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../../src/api/calls.js';
import type { FeedbackCreateReq } from '../../src/api/feedback.js';
import { fakeDigest, Rng, uuidv7At } from './rng.js';
import { text, words } from './text.js';

/** Bump when the generated data changes: it keys the cached database. */
export const GEN_VERSION = 1;
export const PROJECT = 'bench-entity/bench-project';
const T0 = Date.parse('2026-10-01T00:00:00.000Z');
const SPAN_MS = 30 * 24 * 3600 * 1000; // the traces spread over 30 days
const ATTRIBUTES = { weave: { client_version: '0.11.1', source: 'js-sdk' } };
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-3-5-sonnet', 'gpt-4.1-nano'] as const;

export type BatchItem =
  | { mode: 'start'; req: { start: StartedCallSchemaForInsert } }
  | { mode: 'end'; req: { end: EndedCallSchemaForInsert } };

export interface GeneratedTrace {
  readonly traceId: string;
  readonly rootId: string;
  readonly rootOp: string;
  /** start and end items of every call, in execution order */
  readonly items: BatchItem[];
  readonly feedback: FeedbackCreateReq[];
  /** the plan's one big trace */
  readonly big: boolean;
}

export interface CallsPlan {
  readonly seed: string;
  /** exact number of calls over all traces */
  readonly calls: number;
  /** size of the one big evaluation trace placed half-way (0: none) */
  readonly bigTraceCalls: number;
}

/** The op refs: every op has 1-3 versions (digests), the last one the most used. */
const OP_NAMES = [
  'ChatAgent.run',
  'retrieve',
  'rerank',
  'openai.chat.completions.create',
  'tool.search_web',
  'tool.calculator',
  'summarize_document',
  'chunk_text',
  'summarize_chunk',
  'classify_ticket',
  'Evaluation.evaluate',
  'Evaluation.predictAndScore',
  'Model.predict',
  'exactMatch',
  'relevanceScorer',
  'Evaluation.summarize',
] as const;
type OpName = (typeof OP_NAMES)[number];
const OP_VERSIONS: ReadonlyMap<OpName, readonly string[]> = (() => {
  const rng = new Rng('weft-bench-ops-v1');
  return new Map(OP_NAMES.map((n) => [n, Array.from({ length: rng.int(1, 3) }, () => fakeDigest(rng))]));
})();

/** The ref of an op's newest version (or of version `v`). */
export function opRef(name: OpName, v?: number): string {
  const versions = OP_VERSIONS.get(name)!;
  return `weave:///${PROJECT}/op/${name}:${versions[v ?? versions.length - 1]!}`;
}
const AGENT_REF = `weave:///${PROJECT}/object/ChatAgent:${fakeDigest(new Rng('agent'))}`;

interface Usage {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}
/** A call before times and ids are assigned. */
interface Node {
  op: string;
  inputs: Record<string, unknown>;
  output: unknown;
  exception?: string;
  selfMs: number;
  children: Node[];
  usage?: { model: string; u: Usage };
}

/** Shared state of one trace's construction: the seeded stream and the call budget left. */
interface Ctx {
  rng: Rng;
  budget: number;
}

function versionOf(rng: Rng, name: OpName): string {
  const n = OP_VERSIONS.get(name)!.length;
  return opRef(name, rng.chance(0.8) ? n - 1 : rng.int(0, n - 1));
}

/** Takes one call from the budget; null when the trace is out of calls. */
function node(ctx: Ctx, name: OpName, inputs: Record<string, unknown>, output: unknown, selfMs: number): Node | null {
  if (ctx.budget <= 0) return null;
  ctx.budget--;
  const n: Node = { op: versionOf(ctx.rng, name), inputs, output, selfMs, children: [] };
  if (ctx.rng.chance(0.015)) {
    n.exception = `${ctx.rng.pick(['RateLimitError', 'TimeoutError', 'ValueError'])}: ${text(ctx.rng, 60)}`;
    n.output = null;
  }
  return n;
}

function add(parent: Node, child: Node | null): Node | null {
  if (child) parent.children.push(child);
  return child;
}

/** An LLM call: ~1 KB of messages in, a chat.completion (~1 KB) out, usage in its summary. */
function llm(ctx: Ctx, userChars = 600): Node | null {
  const { rng } = ctx;
  const model = rng.pick(MODELS);
  const prompt = rng.int(150, 900);
  const completion = rng.int(40, 400);
  const content = text(rng, rng.int(500, 900));
  const n = node(
    ctx,
    'openai.chat.completions.create',
    {
      model,
      temperature: rng.int(0, 20) / 10,
      max_tokens: rng.pick([256, 512, 1024]),
      messages: [
        { role: 'system', content: text(rng, 250) },
        { role: 'user', content: text(rng, userChars) },
      ],
    },
    {
      id: `chatcmpl-${rng.hex(24)}`,
      object: 'chat.completion',
      created: 1790000000 + rng.int(0, 2592000),
      model,
      system_fingerprint: `fp_${rng.hex(10)}`,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    },
    rng.int(300, 3000),
  );
  if (n)
    n.usage = {
      model,
      u: { requests: 1, prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    };
  return n;
}

function chatTrace(ctx: Ctx): Node {
  const { rng } = ctx;
  const root = node(
    ctx,
    'ChatAgent.run',
    {
      self: AGENT_REF,
      question: text(rng, 300),
      session_id: rng.hex(16),
      history: Array.from({ length: rng.int(1, 4) }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: text(rng, 150),
      })),
    },
    { answer: text(rng, 700), citations: [rng.hex(8), rng.hex(8)] },
    rng.int(5, 40),
  )!;
  const k = rng.int(3, 6);
  add(
    root,
    node(
      ctx,
      'retrieve',
      { query: text(rng, 150), k, index: 'docs-v3', filters: { lang: 'en', source: ['kb', 'faq'] } },
      {
        documents: Array.from({ length: k }, () => ({
          id: rng.hex(8),
          score: rng.int(50, 99) / 100,
          text: text(rng, 140),
        })),
      },
      rng.int(20, 200),
    ),
  );
  if (rng.chance(0.4))
    add(
      root,
      node(
        ctx,
        'rerank',
        { query: text(rng, 150), candidates: k, model: 'rerank-v2' },
        { order: [2, 0, 1], scores: [0.93, 0.81, 0.4] },
        rng.int(30, 120),
      ),
    );
  for (let i = rng.int(1, 3); i > 0; i--) add(root, llm(ctx));
  if (rng.chance(0.5)) {
    const tool = add(
      root,
      node(
        ctx,
        rng.chance(0.5) ? 'tool.search_web' : 'tool.calculator',
        { query: text(rng, 120), locale: 'en-US' },
        { results: [text(rng, 300), text(rng, 300)] },
        rng.int(50, 800),
      ),
    );
    if (tool) add(tool, llm(ctx, 300));
    add(root, llm(ctx));
  }
  return root;
}

function pipelineTrace(ctx: Ctx): Node {
  const { rng } = ctx;
  const chunks = rng.int(2, 8);
  const root = node(
    ctx,
    'summarize_document',
    { document_id: rng.hex(12), title: words(rng, 5), text: text(rng, 900) },
    { summary: text(rng, 800), chunks },
    rng.int(5, 30),
  )!;
  add(
    root,
    node(
      ctx,
      'chunk_text',
      { text: text(rng, 900), chunk_size: 512 },
      { chunks: Array.from({ length: chunks }, () => text(rng, 120)) },
      rng.int(1, 10),
    ),
  );
  for (let i = 0; i < chunks; i++) {
    const s = add(
      root,
      node(
        ctx,
        'summarize_chunk',
        { chunk: text(rng, 700), index: i, style: 'bullet' },
        { summary: text(rng, 500) },
        rng.int(2, 10),
      ),
    );
    if (s) add(s, llm(ctx));
  }
  add(root, llm(ctx, 800));
  return root;
}

function classifyTrace(ctx: Ctx): Node {
  const { rng } = ctx;
  if (rng.chance(0.5)) return llm(ctx, 900)!;
  const root = node(
    ctx,
    'classify_ticket',
    {
      ticket: { id: rng.hex(10), subject: words(rng, 6), body: text(rng, 800) },
      labels: ['billing', 'bug', 'account', 'other'],
    },
    {
      label: rng.pick(['billing', 'bug', 'account', 'other']),
      confidence: rng.int(50, 99) / 100,
      rationale: text(rng, 600),
    },
    rng.int(2, 20),
  )!;
  add(root, llm(ctx, 800));
  return root;
}

/** An evaluation: a root, `rows` x (predictAndScore > predict > llm, scorer), filler summarize calls up to `size`. */
function evalTrace(ctx: Ctx, size: number): Node {
  const { rng } = ctx;
  const root = node(
    ctx,
    'Evaluation.evaluate',
    { self: `weave:///${PROJECT}/object/capture-eval:${fakeDigest(rng)}`, model: AGENT_REF },
    { accuracy: { true_count: 0, true_fraction: 0 }, model_latency: { mean: 1.2 } },
    100,
  )!;
  const rows = Math.floor((size - 1) / 4);
  for (let r = 0; r < rows && ctx.budget > 0; r++) {
    const row = { id: r, question: text(rng, 250), expected: text(rng, 200) };
    const pas = add(
      root,
      node(
        ctx,
        'Evaluation.predictAndScore',
        { example: row, model: AGENT_REF },
        { output: text(rng, 300), scores: { exactMatch: { correct: rng.chance(0.6) } } },
        2,
      ),
    );
    if (!pas) break;
    const pred = add(pas, node(ctx, 'Model.predict', { question: row.question }, text(rng, 400), 2));
    if (pred) add(pred, llm(ctx, 400));
    add(
      pas,
      node(
        ctx,
        rng.chance(0.5) ? 'exactMatch' : 'relevanceScorer',
        { expected: row.expected, output: text(rng, 300) },
        { correct: rng.chance(0.6) },
        1,
      ),
    );
  }
  while (ctx.budget > 0 && size - 1 - root.children.reduce((n, c) => n + count(c), 0) > 0) {
    add(root, node(ctx, 'Evaluation.summarize', { scores: text(rng, 300) }, { summary: text(rng, 300) }, 5));
  }
  return root;
}
const count = (n: Node): number => 1 + n.children.reduce((s, c) => s + count(c), 0);

function addUsage(into: Record<string, Usage>, model: string, u: Usage): void {
  const t = (into[model] ??= { requests: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  t.requests += u.requests;
  t.prompt_tokens += u.prompt_tokens;
  t.completion_tokens += u.completion_tokens;
  t.total_tokens += u.total_tokens;
}

/**
 * Assigns ids and times depth-first and appends the items in execution order. Returns the
 * end time (ms) and the subtree's usage, which becomes the call's summary.usage.
 */
function emit(
  rng: Rng,
  n: Node,
  traceId: string,
  parentId: string | null,
  startMs: number,
  items: BatchItem[],
  extra: Partial<StartedCallSchemaForInsert>,
): { endMs: number; id: string; usage: Record<string, Usage> } {
  const id = uuidv7At(rng, startMs);
  items.push({
    mode: 'start',
    req: {
      start: {
        project_id: PROJECT,
        id,
        op_name: n.op,
        trace_id: traceId,
        ...(parentId ? { parent_id: parentId } : {}),
        started_at: new Date(startMs).toISOString(),
        attributes: ATTRIBUTES,
        inputs: n.inputs,
        ...extra,
      },
    },
  });
  const usage: Record<string, Usage> = {};
  if (n.usage) addUsage(usage, n.usage.model, n.usage.u);
  let t = startMs + 1;
  for (const c of n.children) {
    const r = emit(rng, c, traceId, id, t, items, {});
    for (const [m, u] of Object.entries(r.usage)) addUsage(usage, m, u);
    t = r.endMs + rng.int(0, 3);
  }
  const endMs = t + n.selfMs;
  items.push({
    mode: 'end',
    req: {
      end: {
        project_id: PROJECT,
        id,
        ended_at: new Date(endMs).toISOString(),
        output: n.output,
        summary: Object.keys(usage).length > 0 ? { usage } : {},
        ...(n.exception ? { exception: n.exception } : {}),
      },
    },
  });
  return { endMs, id, usage };
}

function feedbackFor(rng: Rng, callId: string, scorerCallId: string): FeedbackCreateReq[] {
  const weave_ref = `weave:///${PROJECT}/call/${callId}`;
  const out: FeedbackCreateReq[] = [
    {
      project_id: PROJECT,
      weave_ref,
      feedback_type: 'wandb.reaction.1',
      payload: { emoji: rng.pick(['👍', '👎', '🎉']) },
    },
  ];
  if (rng.chance(0.5))
    out.push({ project_id: PROJECT, weave_ref, feedback_type: 'wandb.note.1', payload: { note: text(rng, 80) } });
  if (rng.chance(0.3)) {
    out.push({
      project_id: PROJECT,
      weave_ref,
      feedback_type: 'wandb.runnable.relevanceScorer',
      payload: { output: { score: rng.int(0, 100) / 100 } },
      runnable_ref: opRef('relevanceScorer'),
      call_ref: `weave:///${PROJECT}/call/${scorerCallId}`,
    });
  }
  return out;
}

/** The traces of the plan, oldest first; exactly plan.calls calls in all, the big trace half-way. */
export function* generateTraces(plan: CallsPlan): Generator<GeneratedTrace> {
  const rng = new Rng(`${plan.seed}:calls:v${GEN_VERSION}`);
  const msPerCall = SPAN_MS / Math.max(plan.calls, 1);
  let remaining = plan.calls;
  let clock = T0;
  let bigDone = plan.bigTraceCalls <= 0;
  let turn = 0;
  while (remaining > 0) {
    const big = !bigDone && plan.calls - remaining >= (plan.calls - plan.bigTraceCalls) / 2;
    const ctx: Ctx = { rng: rng.fork('trace'), budget: big ? Math.min(plan.bigTraceCalls, remaining) : remaining };
    const roll = ctx.rng.float();
    const root = big
      ? evalTrace(ctx, ctx.budget)
      : roll < 0.45
        ? chatTrace(ctx)
        : roll < 0.72
          ? pipelineTrace(ctx)
          : roll < 0.95
            ? classifyTrace(ctx)
            : evalTrace(ctx, ctx.rng.int(21, 81));
    if (big) bigDone = true;
    const traceId = uuidv7At(ctx.rng, clock);
    const items: BatchItem[] = [];
    const conv = root.op.includes('/ChatAgent.run:')
      ? { thread_id: `thread-${ctx.rng.int(0, 9999)}`, turn_id: `turn-${turn++}` }
      : {};
    const { id: rootId } = emit(ctx.rng, root, traceId, null, clock, items, conv);
    const last = items[items.length - 2]!; // the last call to end before the root: stands in for a scorer call
    const feedback = ctx.rng.chance(0.02)
      ? feedbackFor(ctx.rng, rootId, last.mode === 'end' ? last.req.end.id : last.req.start.id!)
      : [];
    const n = items.length / 2;
    remaining -= n;
    clock += Math.round(n * msPerCall * (0.5 + ctx.rng.float()));
    yield { traceId, rootId, rootOp: root.op, items, feedback, big };
  }
}
