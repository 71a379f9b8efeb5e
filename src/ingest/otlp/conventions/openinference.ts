// OpenInference (Arize Phoenix and its instrumentations): input.value / output.value with
// their mime types, llm.input_messages.N.message.* / llm.output_messages.N.message.*,
// llm.token_count.* (prompt includes its cache_read / cache_write details),
// llm.model_name, llm.provider / llm.system, llm.invocation_parameters (JSON text),
// openinference.span.kind, session.id.
import {
  inputsFrom,
  isObj,
  jsonContent,
  numberOf,
  parseJsonish,
  sourced,
  stringOf,
  type Convention,
  type Extracted,
  type SpanView,
} from '../span-view.js';

/** llm.*_messages entries are {message: {...}}: the messages themselves. */
function messageList(v: unknown): unknown[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.map((m) => (isObj(m) && isObj(m.message) ? m.message : m));
}

function spanValue(span: SpanView, key: 'input' | 'output'): unknown {
  const raw = span.get(`${key}.value`);
  if (raw === undefined || raw === null) return undefined;
  const mime = span.get(`${key}.mime_type`);
  return mime === 'text/plain' ? raw : jsonContent(raw);
}

export const openInference: Convention = {
  name: 'openinference',
  extract(span: SpanView): Extracted {
    if (!span.uses('input.', 'output.', 'llm.', 'openinference.')) return {};
    const input = spanValue(span, 'input');
    const inputs =
      input !== undefined
        ? sourced(inputsFrom(input, 'input'), 'input.value')
        : sourced(
            ((m) => (m ? { messages: m } : undefined))(messageList(span.get('llm.input_messages'))),
            'llm.input_messages.*',
          );
    const outputValue = spanValue(span, 'output');
    const output =
      outputValue !== undefined
        ? sourced(outputValue, 'output.value')
        : sourced(messageList(span.get('llm.output_messages')), 'llm.output_messages.*');
    const n = (key: string) => numberOf(span.get(key));
    const usage = span.hasPrefix('llm.token_count')
      ? {
          input: n('llm.token_count.prompt'),
          output: n('llm.token_count.completion'),
          total: n('llm.token_count.total'),
          cacheRead: n('llm.token_count.prompt_details.cache_read'),
          cacheWrite: n('llm.token_count.prompt_details.cache_write'),
          reasoning: n('llm.token_count.completion_details.reasoning'),
        }
      : undefined;
    const params = parseJsonish(span.get('llm.invocation_parameters'));
    return {
      inputs,
      output,
      usage,
      model: stringOf(span.get('llm.model_name')),
      provider: stringOf(span.first('llm.provider', 'llm.system')),
      kind: stringOf(span.get('openinference.span.kind')),
      parameters: isObj(params) ? params : undefined,
      threadId: stringOf(span.get('session.id')),
    };
  },
};
