// Semconv attributes read from what a span carries in other conventions: span events
// (span-events.ts), OpenInference (openinference.ts), Google ADK (vertex-adk.ts), the Vercel AI
// SDK's ai.* keys (vercel-ai.ts), Mastra's agent runs (mastra.ts), Claude Code's own spans
// (claude-code.ts), and session.id as the conversation (session-id.ts). span-row.ts takes a
// column from these only when none of its own wire keys is set on the span, so a span's semconv
// attributes always win; the first convention here that sets a key wins over the later ones.
// The attributes read stay where they were (the custom maps, raw_span_dump).
import type { Attributes, OtlpSpan } from '../otlp/otlp-spans.js';
import { openInferenceAttributes } from './openinference.js';
import { claudeCodeAttributes } from './claude-code.js';
import { mastraAttributes } from './mastra.js';
import { sessionIdAttributes } from './session-id.js';
import { eventAttributes } from './span-events.js';
import { vercelAiAttributes } from './vercel-ai.js';
import { vertexAdkAttributes } from './vertex-adk.js';

const CONVENTIONS = [
  eventAttributes,
  openInferenceAttributes,
  vertexAdkAttributes,
  vercelAiAttributes,
  mastraAttributes,
  claudeCodeAttributes,
  sessionIdAttributes,
];

export function fallbackAttributes(span: OtlpSpan): Attributes {
  const out: Attributes = {};
  for (const read of CONVENTIONS)
    for (const [k, v] of Object.entries(read(span))) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}
