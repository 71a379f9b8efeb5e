// The Vercel AI SDK's telemetry (ai.*): ai.prompt (JSON text: system, prompt, messages),
// ai.prompt.messages on its provider-call spans, ai.response.text / .object / .toolCalls,
// ai.toolCall.* on tool spans, ai.usage.* (promptTokens / completionTokens up to v4,
// inputTokens / outputTokens / totalTokens / cachedInputTokens / reasoningTokens from v5),
// ai.model.id and ai.model.provider, ai.operationId.
import {
  inputsFrom,
  jsonContent as content,
  numberOf,
  parseJsonish,
  sourced,
  stringOf,
  type Convention,
  type Extracted,
  type Sourced,
  type SpanView,
} from '../span-view.js';
import { StringifiedJson } from '../../../service/json/stringified-json.js';

type Obj = Record<string, unknown>;

function inputsOf(span: SpanView): Sourced<Obj | StringifiedJson> | undefined {
  const messages = content(span.flat['ai.prompt.messages']);
  if (Array.isArray(messages) || (messages instanceof StringifiedJson && messages.text[0] === '[')) {
    return sourced(inputsFrom(messages, 'messages'), 'ai.prompt.messages');
  }
  const prompt = content(span.flat['ai.prompt']);
  if (prompt !== undefined) return sourced(inputsFrom(prompt, 'prompt'), 'ai.prompt');
  for (const key of ['ai.toolCall.args', 'ai.toolCall.input']) {
    const args = content(span.flat[key]);
    if (args !== undefined) return sourced(inputsFrom(args, 'args'), key);
  }
  return undefined;
}

function outputOf(span: SpanView): Sourced<unknown> | undefined {
  const object = span.flat['ai.response.object'];
  if (object !== undefined) return sourced(content(object), 'ai.response.object');
  const text = span.flat['ai.response.text'];
  const toolCalls = parseJsonish(span.flat['ai.response.toolCalls']);
  if (toolCalls !== undefined)
    return sourced({ text: text ?? null, tool_calls: toolCalls }, 'ai.response.text', 'ai.response.toolCalls');
  if (text !== undefined) return sourced(text, 'ai.response.text');
  for (const key of ['ai.toolCall.result', 'ai.toolCall.output']) {
    if (span.flat[key] !== undefined) return sourced(content(span.flat[key]), key);
  }
  return undefined;
}

export const vercelAi: Convention = {
  name: 'ai',
  extract(span: SpanView): Extracted {
    if (!span.uses('ai.')) return {};
    const n = (...keys: string[]) => numberOf(span.first(...keys));
    const usage = span.hasPrefix('ai.usage')
      ? {
          input: n('ai.usage.inputTokens', 'ai.usage.promptTokens'),
          output: n('ai.usage.outputTokens', 'ai.usage.completionTokens'),
          total: n('ai.usage.totalTokens'),
          cacheRead: n('ai.usage.cachedInputTokens'),
          reasoning: n('ai.usage.reasoningTokens'),
        }
      : undefined;
    const settings = span.under('ai.settings');
    return {
      inputs: inputsOf(span),
      output: outputOf(span),
      usage,
      model: stringOf(span.first('ai.response.model', 'ai.model.id')),
      provider: stringOf(span.get('ai.model.provider')),
      operation: stringOf(span.get('ai.operationId')),
      parameters: Object.keys(settings).length > 0 ? settings : undefined,
    };
  },
};
