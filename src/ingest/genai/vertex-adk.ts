// Google ADK's model call span (`call_llm`, which carries no gen_ai.operation.name) as
// semconv attributes, from the Gemini request and response ADK records as JSON text in
// gcp.vertex.agent.llm_request ({model, contents, config: {systemInstruction, tools}}) and
// gcp.vertex.agent.llm_response ({content, finishReason, usageMetadata, modelVersion}). A span
// with either is a `chat`; contents become input messages (role `model` as `assistant`),
// systemInstruction the system instructions, the response's content the output message, its
// usageMetadata the token counts (when the span has none of its own). Gemini parts read as
// semconv parts: text (thought: true as reasoning), functionCall -> tool_call,
// functionResponse -> tool_call_response. ADK's tool spans carry "{}" in both: nothing here.
import type { Attributes, OtlpSpan } from '../otlp/otlp-spans.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function parsedObj(v: unknown): Obj | null {
  if (isObj(v)) return v;
  if (typeof v !== 'string' || v.trimStart()[0] !== '{') return null;
  try {
    const o = JSON.parse(v);
    return isObj(o) ? o : null;
  } catch {
    return null;
  }
}

function part(p: unknown): unknown {
  if (!isObj(p)) return p;
  if (typeof p.text === 'string') return { type: p.thought === true ? 'reasoning' : 'text', content: p.text };
  if (isObj(p.functionCall))
    return {
      type: 'tool_call',
      id: p.functionCall.id ?? null,
      name: p.functionCall.name,
      arguments: p.functionCall.args,
    };
  if (isObj(p.functionResponse))
    return {
      type: 'tool_call_response',
      id: p.functionResponse.id ?? null,
      name: p.functionResponse.name,
      response: p.functionResponse.response,
    };
  return p;
}

const contentMessage = (c: Obj, extra: Obj = {}) => ({
  role: c.role === 'model' ? 'assistant' : typeof c.role === 'string' ? c.role : 'user',
  parts: Array.isArray(c.parts) ? c.parts.map(part) : [],
  ...extra,
});

/** systemInstruction: text, a Content ({parts}), or a list of parts or texts. */
function instructions(v: unknown): unknown[] {
  if (typeof v === 'string') return v === '' ? [] : [{ type: 'text', content: v }];
  if (isObj(v) && Array.isArray(v.parts)) return v.parts.map(part);
  if (Array.isArray(v)) return v.map((p) => (typeof p === 'string' ? { type: 'text', content: p } : part(p)));
  return [];
}

export function vertexAdkAttributes(span: OtlpSpan): Attributes {
  const req = parsedObj(span.attributes['gcp.vertex.agent.llm_request']);
  const res = parsedObj(span.attributes['gcp.vertex.agent.llm_response']);
  const contents = Array.isArray(req?.contents) ? req.contents.filter(isObj) : [];
  const answer = isObj(res?.content) ? res.content : null;
  if (contents.length === 0 && answer === null) return {};
  const out: Attributes = { 'gen_ai.operation.name': 'chat' };
  if (typeof req?.model === 'string') out['gen_ai.request.model'] = req.model;
  if (typeof res?.modelVersion === 'string') out['gen_ai.response.model'] = res.modelVersion;
  if (contents.length > 0) out['gen_ai.input.messages'] = contents.map((c) => contentMessage(c));
  const config = isObj(req?.config) ? req.config : {};
  const system = instructions(config.systemInstruction);
  if (system.length > 0) out['gen_ai.system_instructions'] = system;
  const declarations = (Array.isArray(config.tools) ? config.tools : []).flatMap((t) =>
    isObj(t) && Array.isArray(t.functionDeclarations) ? t.functionDeclarations : [],
  );
  if (declarations.length > 0) out['gen_ai.tool.definitions'] = declarations;
  if (answer !== null) {
    const finish = typeof res?.finishReason === 'string' ? { finish_reason: res.finishReason.toLowerCase() } : {};
    out['gen_ai.output.messages'] = [contentMessage(answer, finish)];
  }
  const usage = isObj(res?.usageMetadata) ? res.usageMetadata : {};
  if (typeof usage.promptTokenCount === 'number') out['gen_ai.usage.input_tokens'] = usage.promptTokenCount;
  if (typeof usage.candidatesTokenCount === 'number')
    out['gen_ai.usage.output_tokens'] =
      usage.candidatesTokenCount + (typeof usage.thoughtsTokenCount === 'number' ? usage.thoughtsTokenCount : 0);
  if (typeof usage.cachedContentTokenCount === 'number')
    out['gen_ai.usage.cache_read.input_tokens'] = usage.cachedContentTokenCount;
  if (typeof usage.thoughtsTokenCount === 'number')
    out['gen_ai.usage.reasoning.output_tokens'] = usage.thoughtsTokenCount;
  return out;
}
