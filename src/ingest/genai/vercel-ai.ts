// The Vercel AI SDK's own spans (`ai.*` keys: its LegacyOpenTelemetry integration, and every
// AI SDK before 7) as semconv attributes. ai.operationId names the operation: a top-level call
// (ai.generateText, ai.streamText, ai.generateObject, ai.streamObject) is an invoke_agent named
// by ai.telemetry.functionId; its model calls (….doGenerate / ….doStream) are chats; ai.toolCall
// an execute_tool; ai.embed / ai.embedMany and their doEmbed embeddings. Model: ai.model.id,
// ai.response.model; tokens: ai.usage.{inputTokens|promptTokens, outputTokens|completionTokens,
// cachedInputTokens, reasoningTokens}; input: ai.prompt.messages (the model call's), else
// ai.prompt ({system, prompt, messages}); output: ai.response.text with ai.response.toolCalls
// and ai.response.finishReason; tools: ai.toolCall.{name, id, args|input, result|output}.
// Message parts of the SDK's shape (text, tool-call, tool-result, reasoning) read as semconv parts.
import type { Attributes, OtlpSpan } from '../otlp/otlp-spans.js';
import { parseJsonText } from './json-text.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function operation(id: string): string | undefined {
  if (/^ai\.(generate|stream)(Text|Object)$/.test(id)) return 'invoke_agent';
  if (/^ai\.(generate|stream)(Text|Object)\.do(Generate|Stream)$/.test(id)) return 'chat';
  if (id === 'ai.toolCall') return 'execute_tool';
  if (/^ai\.embed(Many)?(\.doEmbed)?$/.test(id)) return 'embeddings';
  return undefined;
}

function part(p: unknown): unknown {
  if (typeof p === 'string') return { type: 'text', content: p };
  if (!isObj(p)) return p;
  switch (p.type) {
    case 'text':
      return { type: 'text', content: p.text ?? '' };
    case 'reasoning':
      return { type: 'reasoning', content: p.text ?? '' };
    case 'tool-call':
      return { type: 'tool_call', id: p.toolCallId ?? null, name: p.toolName ?? null, arguments: p.input ?? p.args };
    case 'tool-result': {
      const output = isObj(p.output) && 'value' in p.output ? p.output.value : (p.output ?? p.result);
      return { type: 'tool_call_response', id: p.toolCallId ?? null, response: output };
    }
    default:
      return p;
  }
}

/** The SDK's message list as semconv messages, system messages apart. */
function messages(list: unknown): { system: unknown[]; messages: Obj[] } {
  const out = { system: [] as unknown[], messages: [] as Obj[] };
  for (const m of Array.isArray(list) ? list : []) {
    if (!isObj(m)) continue;
    const parts = Array.isArray(m.content) ? m.content.map(part) : [part(m.content)];
    if (m.role === 'system') out.system.push(...parts);
    else out.messages.push({ role: m.role, parts });
  }
  return out;
}

export function vercelAiAttributes(span: OtlpSpan): Attributes {
  const a = span.attributes;
  const id = str(a['ai.operationId']);
  if (id === undefined) return {};
  const out: Attributes = {};
  const op = operation(id);
  if (op !== undefined) out['gen_ai.operation.name'] = op;
  const fn = str(a['ai.telemetry.functionId']);
  if (op === 'invoke_agent' && fn !== undefined) out['gen_ai.agent.name'] = fn;
  const model = str(a['ai.model.id']);
  if (model !== undefined) out['gen_ai.request.model'] = model;
  const responseModel = str(a['ai.response.model']);
  if (responseModel !== undefined) out['gen_ai.response.model'] = responseModel;
  const provider = str(a['ai.model.provider']);
  if (provider !== undefined) out['gen_ai.provider.name'] = provider.split('.')[0];
  const count = (...keys: string[]) => keys.map((k) => a[k]).find((v) => typeof v === 'number');
  const tokens: [string, unknown][] = [
    ['gen_ai.usage.input_tokens', count('ai.usage.inputTokens', 'ai.usage.promptTokens')],
    ['gen_ai.usage.output_tokens', count('ai.usage.outputTokens', 'ai.usage.completionTokens')],
    ['gen_ai.usage.cache_read.input_tokens', count('ai.usage.cachedInputTokens')],
    ['gen_ai.usage.reasoning.output_tokens', count('ai.usage.reasoningTokens')],
  ];
  for (const [k, v] of tokens) if (v !== undefined) out[k] = v;
  const prompt = parseJsonText(a['ai.prompt']);
  const input = messages(
    parseJsonText(a['ai.prompt.messages']) ??
      (isObj(prompt)
        ? [
            ...(typeof prompt.system === 'string' ? [{ role: 'system', content: prompt.system }] : []),
            ...(typeof prompt.prompt === 'string' ? [{ role: 'user', content: prompt.prompt }] : []),
            ...(Array.isArray(prompt.messages) ? prompt.messages : []),
          ]
        : typeof prompt === 'string'
          ? [{ role: 'user', content: prompt }]
          : []),
  );
  if (input.messages.length > 0) out['gen_ai.input.messages'] = input.messages;
  if (input.system.length > 0) out['gen_ai.system_instructions'] = input.system;
  const text = str(a['ai.response.text']);
  const calls = parseJsonText(a['ai.response.toolCalls']);
  const callParts = (Array.isArray(calls) ? calls : []).map((c) => part(isObj(c) ? { type: 'tool-call', ...c } : c));
  if (text !== undefined || callParts.length > 0) {
    const finish = str(a['ai.response.finishReason']);
    out['gen_ai.output.messages'] = [
      {
        role: 'assistant',
        parts: [...(text !== undefined ? [{ type: 'text', content: text }] : []), ...callParts],
        ...(finish !== undefined ? { finish_reason: finish } : {}),
      },
    ];
  }
  if (op === 'execute_tool') {
    for (const [to, ...from] of [
      ['gen_ai.tool.name', 'ai.toolCall.name'],
      ['gen_ai.tool.call.id', 'ai.toolCall.id'],
      ['gen_ai.tool.call.arguments', 'ai.toolCall.args', 'ai.toolCall.input'],
      ['gen_ai.tool.call.result', 'ai.toolCall.result', 'ai.toolCall.output'],
    ] as const) {
      const v = from.map((k) => a[k]).find((x) => x !== undefined);
      if (v !== undefined) out[to] = v;
    }
  }
  return out;
}
