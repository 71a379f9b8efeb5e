// Mastra's spans (@mastra/otel-exporter): GenAI attributes, but an agent run's question and
// answer, and a model step's input, only in its own keys.
// - `mastra.agent_run.input` (this turn's user text, or a message list) and
//   `mastra.agent_run.output` (`{text}`) on the `invoke_agent` span become its input and output
//   messages.
// - A model step (`agent_step`, `mastra.span.type` model_step) holds what its model call (the
//   `chat` span under it, which carries no input messages) was given: `mastra.model_step.input`,
//   a {role, content} list (tool calls and results summarized by Mastra as `[tool: name]`,
//   `[tool-result: name]`), becomes the step's input messages and system instructions; the
//   tool calls of `mastra.model_step.output` (`{text, toolCalls: [{toolCallId, toolName, args}]}`)
//   its output, as tool_call parts: the `chat` span sends an empty text part where its model
//   asked for a tool. The step's text stays with the `chat` span that has it, so a chat view
//   shows each answer once.
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

/** A model step's input: its {role, content: text} items, the system's apart. */
function stepInput(v: unknown): { system: string[]; messages: Obj[] } {
  const parsed = parseJsonText(v);
  const items = Array.isArray(parsed) ? parsed.filter(isObj) : [];
  const said = items.filter((m) => typeof m.role === 'string' && typeof m.content === 'string');
  return {
    system: said.filter((m) => m.role === 'system').map((m) => m.content as string),
    messages: said.filter((m) => m.role !== 'system').map((m) => text(m.role as string, m.content as string)),
  };
}

/** The tool calls of a model step's output, as one assistant message of tool_call parts. */
function stepToolCalls(v: unknown): Obj[] | undefined {
  const output = parseJsonText(v);
  const calls = isObj(output) && Array.isArray(output.toolCalls) ? output.toolCalls.filter(isObj) : [];
  const parts = calls
    .filter((c) => typeof c.toolName === 'string')
    .map((c) => ({ type: 'tool_call', id: c.toolCallId ?? null, name: c.toolName, arguments: c.args ?? null }));
  return parts.length > 0 ? [{ role: 'assistant', parts }] : undefined;
}

function agentRun(a: Attributes): Attributes {
  const out: Attributes = {};
  const input = runInput(a['mastra.agent_run.input']);
  if (input !== undefined) out['gen_ai.input.messages'] = input;
  const output = parseJsonText(a['mastra.agent_run.output']);
  const answer = isObj(output) ? output.text : output;
  if (typeof answer === 'string' && answer !== '') out['gen_ai.output.messages'] = [text('assistant', answer)];
  return out;
}

function modelStep(a: Attributes): Attributes {
  const out: Attributes = {};
  const { system, messages } = stepInput(a['mastra.model_step.input']);
  if (messages.length > 0) out['gen_ai.input.messages'] = messages;
  if (system.length > 0) out['gen_ai.system_instructions'] = system.join('\n');
  const calls = stepToolCalls(a['mastra.model_step.output']);
  if (calls !== undefined) out['gen_ai.output.messages'] = calls;
  return out;
}

export function mastraAttributes(span: OtlpSpan): Attributes {
  const type = span.attributes['mastra.span.type'];
  if (type === 'agent_run') return agentRun(span.attributes);
  if (type === 'model_step') return modelStep(span.attributes);
  return {};
}
