// OpenTelemetry's GenAI semantic conventions, both generations:
//   old (to 1.36): gen_ai.prompt.N.{role,content} / gen_ai.completion.N.*, or the same as span
//     events gen_ai.content.prompt / gen_ai.content.completion, and gen_ai.system;
//   new (1.37+): gen_ai.input.messages / gen_ai.output.messages as JSON text of messages with
//     parts[], gen_ai.system_instructions, gen_ai.provider.name (also as attributes of a
//     gen_ai.client.inference.operation.details event).
// Usage: gen_ai.usage.input_tokens includes cached input tokens (the 1.37 definition);
// gen_ai.usage.prompt_tokens / completion_tokens are the pre-1.27 names.
import {
  numberOf,
  parseJsonish,
  sourced,
  stringOf,
  type Convention,
  type Extracted,
  type Sourced,
  type SpanView,
  type TokenCounts,
} from '../span-view.js';

type Obj = Record<string, unknown>;

/** An attribute of the span, else of its first event that carries it. */
function fromSpanOrEvents(span: SpanView, key: string): unknown {
  const own = span.get(key);
  if (own !== undefined && own !== null) return own;
  for (const e of span.span.events) if (e.attributes[key] !== undefined) return e.attributes[key];
  return undefined;
}

function messages(v: unknown): unknown[] | undefined {
  const parsed = parseJsonish(v);
  if (Array.isArray(parsed)) return parsed;
  return undefined;
}

/** Messages sent as events (1.28-1.36): gen_ai.{system,user,assistant,tool}.message, role from the name. */
const MESSAGE_EVENT = /^gen_ai\.(system|user|assistant|tool)\.message$/;
function eventMessages(span: SpanView): unknown[] | undefined {
  const found = span.span.events.flatMap((e) => {
    const role = MESSAGE_EVENT.exec(e.name)?.[1];
    if (role === undefined) return [];
    const { content, ...rest } = e.attributes;
    return [{ role, content: parseJsonish(content ?? null), ...rest }];
  });
  return found.length > 0 ? found : undefined;
}

function inputsOf(span: SpanView): Sourced<Obj> | undefined {
  const newer = messages(fromSpanOrEvents(span, 'gen_ai.input.messages'));
  if (newer) {
    const system = parseJsonish(fromSpanOrEvents(span, 'gen_ai.system_instructions'));
    const value = system === undefined ? { messages: newer } : { system_instructions: system, messages: newer };
    return sourced(value, 'gen_ai.input.messages', 'gen_ai.system_instructions');
  }
  const prompt = fromSpanOrEvents(span, 'gen_ai.prompt');
  if (prompt === undefined || prompt === null) {
    const fromEvents = eventMessages(span);
    return sourced(fromEvents ? { messages: fromEvents } : undefined);
  }
  const parsed = parseJsonish(prompt);
  const value = Array.isArray(parsed)
    ? { messages: parsed }
    : parsed !== null && typeof parsed === 'object'
      ? (parsed as Obj)
      : { prompt: parsed };
  return sourced(value, 'gen_ai.prompt', 'gen_ai.prompt.*');
}

function outputOf(span: SpanView): Sourced<unknown> | undefined {
  const newer = messages(fromSpanOrEvents(span, 'gen_ai.output.messages'));
  if (newer) return sourced(newer, 'gen_ai.output.messages');
  const completion = fromSpanOrEvents(span, 'gen_ai.completion');
  if (completion !== undefined && completion !== null)
    return sourced(parseJsonish(completion), 'gen_ai.completion', 'gen_ai.completion.*');
  // gen_ai.choice events (1.28-1.36): one per choice, the message in its attributes.
  const choices = span.span.events
    .filter((e) => e.name === 'gen_ai.choice')
    .map((e) => parseJsonish(e.attributes.message ?? e.attributes));
  return sourced(choices.length > 0 ? choices : undefined);
}

function usageOf(span: SpanView): TokenCounts | undefined {
  if (!span.hasPrefix('gen_ai.usage')) return undefined;
  const n = (...keys: string[]) => numberOf(span.first(...keys));
  return {
    input: n('gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens'),
    output: n('gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens'),
    total: n('gen_ai.usage.total_tokens'),
    cacheRead: n('gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_read_input_tokens'),
    cacheWrite: n('gen_ai.usage.cache_creation.input_tokens', 'gen_ai.usage.cache_creation_input_tokens'),
    reasoning: n('gen_ai.usage.reasoning.output_tokens', 'gen_ai.usage.reasoning_tokens'),
  };
}

export const genAi: Convention = {
  name: 'gen_ai',
  extract(span: SpanView): Extracted {
    if (!span.uses('gen_ai.') && !span.span.events.some((e) => e.name.startsWith('gen_ai.'))) return {};
    const { model: _model, ...parameters } = span.under('gen_ai.request');
    return {
      inputs: inputsOf(span),
      output: outputOf(span),
      usage: usageOf(span),
      model: stringOf(span.first('gen_ai.response.model', 'gen_ai.request.model')),
      provider: stringOf(span.first('gen_ai.provider.name', 'gen_ai.system')),
      operation: stringOf(span.get('gen_ai.operation.name')),
      parameters: Object.keys(parameters).length > 0 ? parameters : undefined,
      threadId: stringOf(span.get('gen_ai.conversation.id')),
    };
  },
};
