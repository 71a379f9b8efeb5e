// `session.id` as the conversation, on any span of any convention: Strands users put it in
// `traceAttributes`, OpenInference instrumentations (LangChain's thread_id, the Claude Agent
// SDK's session) and Traceloop set it, Claude Code sends it beside gen_ai.conversation.id.
// A fallback, so gen_ai.conversation.id (and Weave's keys) win when a span carries both.
import type { Attributes, OtlpSpan } from '../otlp/otlp-spans.js';

export function sessionIdAttributes(span: OtlpSpan): Attributes {
  const id = span.attributes['session.id'];
  return typeof id === 'string' && id !== '' ? { 'gen_ai.conversation.id': id } : {};
}
