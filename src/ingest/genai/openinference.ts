// OpenInference spans (Arize's instrumentations: OpenAI Agents, LangChain/LangGraph, Claude
// Agent SDK, …) as semconv attributes. openinference.span.kind names the operation (AGENT ->
// invoke_agent, LLM -> chat, TOOL -> execute_tool, EMBEDDING -> embeddings); an agent is named
// by graph.node.id, else agent.name, else the span's name. A root CHAIN span (LangGraph's
// graph, a LangChain app's outermost chain) is the app's agent, named after the span.
// llm.model_name, llm.provider / llm.system and llm.token_count.* (prompt, completion,
// prompt_details.cache_read / cache_write, completion_details.reasoning) fill the model,
// provider and token columns (session.id, the conversation, is read from any span:
// session-id.ts). Messages come from the flattened llm.input_messages / llm.output_messages
// (role, content or contents[].message_content.text, tool_calls[].tool_call.{id,function},
// tool_call_id), system-role input messages as the system instructions. An agent span without
// them reads input.value (a message list, LangGraph's state: langchain-values.ts, or text as
// the user's) and output.value (text, or the state's last answer). A TOOL span's input.value /
// output.value are its call's arguments and result (a LangChain ToolMessage as its content,
// with the id of the call it answers).
import type { Attributes, OtlpSpan } from '../otlp/otlp-spans.js';
import { nestedAt } from './flat-keys.js';
import { parseJsonText } from './json-text.js';
import { stateMessages, toolMessage } from './langchain-values.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const OPERATIONS: Readonly<Record<string, string>> = {
  AGENT: 'invoke_agent',
  LLM: 'chat',
  TOOL: 'execute_tool',
  EMBEDDING: 'embeddings',
};

const TOKENS: readonly [string, string][] = [
  ['llm.token_count.prompt', 'gen_ai.usage.input_tokens'],
  ['llm.token_count.completion', 'gen_ai.usage.output_tokens'],
  ['llm.token_count.prompt_details.cache_read', 'gen_ai.usage.cache_read.input_tokens'],
  ['llm.token_count.prompt_details.cache_write', 'gen_ai.usage.cache_creation.input_tokens'],
  ['llm.token_count.completion_details.reasoning', 'gen_ai.usage.reasoning.output_tokens'],
];

/** One OpenInference message ({role, content, contents, tool_calls, tool_call_id}) as semconv parts. */
function message(m: Obj): Obj {
  const role = str(m.role) ?? 'user';
  const parts: unknown[] = [];
  const text =
    str(m.content) ??
    (Array.isArray(m.contents)
      ? m.contents
          .map((c) => (isObj(c) && isObj(c.message_content) ? (str(c.message_content.text) ?? '') : ''))
          .join('')
      : undefined);
  if (role === 'tool' && str(m.tool_call_id) !== undefined)
    parts.push({ type: 'tool_call_response', id: m.tool_call_id, response: text ?? '' });
  else if (text !== undefined && text !== '') parts.push({ type: 'text', content: text });
  for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
    const call = isObj(c) && isObj(c.tool_call) ? c.tool_call : null;
    if (call === null) continue;
    const fn = isObj(call.function) ? call.function : {};
    parts.push({ type: 'tool_call', id: call.id ?? null, name: fn.name ?? null, arguments: fn.arguments ?? null });
  }
  return { role, parts };
}

function messages(attrs: Attributes, prefix: string): Obj[] | undefined {
  const list = nestedAt(attrs, prefix);
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((m) => (isObj(m) && isObj(m.message) ? [message(m.message)] : []));
}

const textMessage = (role: string, text: string) => ({ role, parts: [{ type: 'text', content: text }] });

/** An agent's input.value: a list's role-bearing items (text content only), a LangGraph state's messages, or text as the user's. */
function agentInput(value: unknown): Obj[] | undefined {
  const v = parseJsonText(value);
  if (typeof v === 'string') return v === '' ? undefined : [textMessage('user', v)];
  const state = stateMessages(v);
  if (state !== undefined) {
    const asked = state.filter((m) => m.role !== 'system' && m.text !== '');
    return asked.length > 0 ? asked.map((m) => textMessage(m.role, m.text)) : undefined;
  }
  if (!Array.isArray(v)) return undefined;
  const out = v.filter((m): m is Obj => isObj(m) && typeof m.role === 'string' && typeof m.content === 'string');
  return out.length > 0 ? out.map((m) => textMessage(m.role as string, m.content as string)) : undefined;
}

/** An agent's output.value: text, or the last assistant text of a LangGraph state. */
function agentOutput(value: unknown): string | undefined {
  const v = parseJsonText(value);
  if (typeof v === 'string') return v === '' ? undefined : v;
  const said = stateMessages(v)?.filter((m) => m.role === 'assistant' && m.text !== '');
  return said?.[said.length - 1]?.text;
}

export function openInferenceAttributes(span: OtlpSpan): Attributes {
  const a = span.attributes;
  const kind = str(a['openinference.span.kind'])?.toUpperCase();
  if (kind === undefined) return {};
  const out: Attributes = {};
  const op = kind === 'CHAIN' && span.parentSpanId === null ? 'invoke_agent' : OPERATIONS[kind];
  if (op !== undefined) out['gen_ai.operation.name'] = op;
  if (op === 'invoke_agent') out['gen_ai.agent.name'] = str(a['graph.node.id']) ?? str(a['agent.name']) ?? span.name;
  const model = str(a['llm.model_name']);
  if (model !== undefined) out['gen_ai.request.model'] = model;
  const provider = str(a['llm.provider']) ?? str(a['llm.system']);
  if (provider !== undefined) out['gen_ai.provider.name'] = provider;
  for (const [from, to] of TOKENS) if (typeof a[from] === 'number') out[to] = a[from];
  const input = messages(a, 'llm.input_messages');
  const output = messages(a, 'llm.output_messages');
  if (input !== undefined) {
    const system = input.filter((m) => m.role === 'system');
    out['gen_ai.input.messages'] = input.filter((m) => m.role !== 'system');
    if (system.length > 0) out['gen_ai.system_instructions'] = system.flatMap((m) => m.parts as unknown[]);
  }
  if (output !== undefined) {
    const finish = str(a['llm.finish_reason']);
    out['gen_ai.output.messages'] =
      finish === undefined ? output : output.map((m) => ({ ...m, finish_reason: finish }));
  }
  if (op === 'execute_tool') {
    const name = str(a['tool.name']);
    if (name !== undefined) out['gen_ai.tool.name'] = name;
    if (a['input.value'] !== undefined) out['gen_ai.tool.call.arguments'] = a['input.value'];
    // LangChain's tools answer with a serialized ToolMessage naming the call it answers.
    const answered = toolMessage(parseJsonText(a['output.value']));
    if (answered !== undefined) {
      out['gen_ai.tool.call.result'] = answered.content;
      if (answered.callId !== null) out['gen_ai.tool.call.id'] = answered.callId;
    } else if (a['output.value'] !== undefined) out['gen_ai.tool.call.result'] = a['output.value'];
  }
  if (op === 'invoke_agent') {
    const asked = input === undefined ? agentInput(a['input.value']) : undefined;
    if (asked !== undefined) out['gen_ai.input.messages'] = asked;
    const answer = output === undefined ? agentOutput(a['output.value']) : undefined;
    if (answer !== undefined) out['gen_ai.output.messages'] = [textMessage('assistant', answer)];
  }
  return out;
}
