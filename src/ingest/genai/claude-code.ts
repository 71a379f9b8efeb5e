// Claude Code's own OpenTelemetry (scope com.anthropic.claude_code.tracing; the CLI the Claude
// Agent SDK runs sends it with CLAUDE_CODE_ENABLE_TELEMETRY=1): GenAI operations and token
// figures, but no agent name and no messages on spans. Its `interaction` span (invoke_agent) is
// the agent `claude-code` with the prompt it was given (`user_prompt`, sent with
// OTEL_LOG_USER_PROMPTS=1) as the user's message; a tool span's `tool.output` event is the
// call's result. The model's answers go out as log records only, which Weft does not take.
import type { Attributes, OtlpSpan } from '../otlp/otlp-spans.js';

const SCOPE = 'com.anthropic.claude_code.tracing';
export const CLAUDE_CODE_AGENT = 'claude-code';

export function claudeCodeAttributes(span: OtlpSpan): Attributes {
  if (span.scope.name !== SCOPE) return {};
  const a = span.attributes;
  const out: Attributes = {};
  if (a['span.type'] === 'interaction') {
    out['gen_ai.agent.name'] = CLAUDE_CODE_AGENT;
    const prompt = a.user_prompt;
    if (typeof prompt === 'string' && prompt !== '')
      out['gen_ai.input.messages'] = [{ role: 'user', parts: [{ type: 'text', content: prompt }] }];
  }
  if (a['span.type'] === 'tool') {
    const output = span.events.find((e) => e.name === 'tool.output')?.attributes.output;
    if (output !== undefined) out['gen_ai.tool.call.result'] = output;
  }
  return out;
}
