// GenAI content carried in span events rather than attributes, as semconv attributes:
//  - `gen_ai.client.inference.operation.details` events (the current semconv; Strands with
//    OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental): their attributes
//    (gen_ai.input.messages, gen_ai.output.messages, gen_ai.system_instructions, …) are the span's.
//  - The earlier per-message events (Strands by default): gen_ai.system.message -> system
//    instructions; gen_ai.user.message / assistant.message / tool.message -> input messages in
//    event order; gen_ai.choice -> output messages (its finish_reason kept). The content is the
//    event's `content` (or `message`) attribute: text or Converse-style blocks (converse-blocks.ts).
//  - On an execute_tool span the tool's own events: gen_ai.tool.message's content is the call's
//    arguments, gen_ai.choice's message its result (both kept as sent).
import type { Attributes, OtlpSpan } from '../otlp/otlp-spans.js';
import { contentParts } from './converse-blocks.js';

const DETAILS = 'gen_ai.client.inference.operation.details';
const ROLES: Readonly<Record<string, string>> = {
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

const contentOf = (e: Attributes): unknown => e.content ?? e.message;
const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

export function eventAttributes(span: OtlpSpan): Attributes {
  const out: Attributes = {};
  if (span.events.length === 0) return out;
  for (const e of span.events) {
    if (e.name !== DETAILS) continue;
    for (const [k, v] of Object.entries(e.attributes)) if (!(k in out) && isSet(v)) out[k] = v;
  }
  if (span.attributes['gen_ai.operation.name'] === 'execute_tool') {
    const call = span.events.find((e) => e.name === 'gen_ai.tool.message');
    const result = span.events.find((e) => e.name === 'gen_ai.choice');
    if (call !== undefined && isSet(contentOf(call.attributes)))
      out['gen_ai.tool.call.arguments'] ??= contentOf(call.attributes);
    if (result !== undefined && isSet(contentOf(result.attributes)))
      out['gen_ai.tool.call.result'] ??= contentOf(result.attributes);
    return out;
  }
  const system: unknown[] = [];
  const input: unknown[] = [];
  const output: unknown[] = [];
  for (const e of span.events) {
    const content = contentOf(e.attributes);
    if (e.name === 'gen_ai.system.message') system.push(...contentParts(content));
    else if (ROLES[e.name] !== undefined) input.push({ role: ROLES[e.name], parts: contentParts(content) });
    else if (e.name === 'gen_ai.choice') {
      const finish = e.attributes.finish_reason;
      output.push({
        role: 'assistant',
        parts: contentParts(content),
        ...(typeof finish === 'string' ? { finish_reason: finish } : {}),
      });
    }
  }
  if (system.length > 0) out['gen_ai.system_instructions'] ??= system;
  if (input.length > 0) out['gen_ai.input.messages'] ??= input;
  if (output.length > 0) out['gen_ai.output.messages'] ??= output;
  return out;
}
