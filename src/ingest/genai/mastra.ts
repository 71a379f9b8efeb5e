// Mastra's spans (@mastra/otel-exporter): GenAI attributes, but an agent run's question and
// answer only in its own keys. `mastra.agent_run.input` (this turn's user text, or a message
// list) and `mastra.agent_run.output` (`{text}`) on the `invoke_agent` span become its input and
// output messages. Its model calls carry no input messages and an empty text part where they
// asked for a tool (the tool's own span holds the call); those are left as sent.
import type { Attributes, OtlpSpan } from '../otlp/otlp-spans.js';
import { parseJsonText } from './json-text.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (role: string, content: string) => ({ role, parts: [{ type: 'text', content }] });

/** The run's input: text as the user's, or a list's {role, content: text} items but the system's. */
function runInput(v: unknown): Obj[] | undefined {
  const parsed = parseJsonText(v);
  if (typeof parsed === 'string') return parsed === '' ? undefined : [text('user', parsed)];
  if (!Array.isArray(parsed)) return undefined;
  const out = parsed.flatMap((m) =>
    isObj(m) && typeof m.role === 'string' && m.role !== 'system' && typeof m.content === 'string'
      ? [text(m.role, m.content)]
      : [],
  );
  return out.length > 0 ? out : undefined;
}

export function mastraAttributes(span: OtlpSpan): Attributes {
  const a = span.attributes;
  if (a['mastra.span.type'] !== 'agent_run') return {};
  const out: Attributes = {};
  const input = runInput(a['mastra.agent_run.input']);
  if (input !== undefined) out['gen_ai.input.messages'] = input;
  const output = parseJsonText(a['mastra.agent_run.output']);
  const answer = isObj(output) ? output.text : output;
  if (typeof answer === 'string' && answer !== '') out['gen_ai.output.messages'] = [text('assistant', answer)];
  return out;
}
