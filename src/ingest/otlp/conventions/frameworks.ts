// Frameworks that name their content with their own keys (the ones Weave also reads):
// MLflow (mlflow.spanInputs / mlflow.spanOutputs, JSON text), Pydantic AI
// (pydantic_ai.all_messages, final_result), OpenLLMetry's workflow and task spans
// (traceloop.entity.input / .output, traceloop.span.kind; llm.usage.total_tokens of its
// older LLM spans), Google's ADK on Vertex (gcp.vertex.agent.*), Weave's own
// weave.span.kind, and plain input(s) / output(s) attributes.
import {
  inputsFrom,
  numberOf,
  parseJson,
  sourced,
  stringified,
  stringOf,
  type Convention,
  type Extracted,
  type Sourced,
  type SpanView,
} from '../span-view.js';
import type { StringifiedJson } from '../../../service/json/stringified-json.js';

type Obj = Record<string, unknown>;

// These frameworks write JSON text (a bare string arrives quoted); plain input(s) / output(s)
// may be JSON or text, so text that does not parse stays text.
const INPUT_KEYS = [
  'mlflow.spanInputs',
  'traceloop.entity.input',
  'gcp.vertex.agent.llm_request',
  'gcp.vertex.agent.tool_call_args',
  'input',
  'inputs',
];
const OUTPUT_KEYS = [
  'mlflow.spanOutputs',
  'final_result',
  'traceloop.entity.output',
  'gcp.vertex.agent.llm_response',
  'gcp.vertex.agent.tool_response',
  'output',
  'outputs',
];

function inputsOf(span: SpanView): Sourced<Obj | StringifiedJson> | undefined {
  const messages = parseJson(span.flat['pydantic_ai.all_messages']);
  if (Array.isArray(messages)) return sourced({ messages }, 'pydantic_ai.all_messages');
  for (const key of INPUT_KEYS) {
    const raw = span.flat[key];
    if (raw === undefined || raw === null) continue;
    return sourced(inputsFrom(stringified(raw) ?? parseJson(raw), key.slice(key.lastIndexOf('.') + 1)), key);
  }
  return undefined;
}

function outputOf(span: SpanView): Sourced<unknown> | undefined {
  for (const key of OUTPUT_KEYS) {
    const raw = span.flat[key];
    if (raw !== undefined && raw !== null) return sourced(stringified(raw) ?? parseJson(raw), key);
  }
  return undefined;
}

export const frameworks: Convention = {
  name: 'frameworks',
  extract(span: SpanView): Extracted {
    const total = numberOf(span.flat['llm.usage.total_tokens']);
    return {
      inputs: inputsOf(span),
      output: outputOf(span),
      usage: total === undefined ? undefined : { total },
      kind: stringOf(span.first('weave.span.kind', 'traceloop.span.kind')),
      threadId: stringOf(span.flat['gcp.vertex.agent.session_id']),
    };
  },
};
