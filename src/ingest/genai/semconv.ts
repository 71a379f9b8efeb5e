// The GenAI attributes Weft promotes to span columns, with every wire key that names each:
// the canonical `weave.*` key first, then the `gen_ai.*` and older aliases, the first one set
// winning (Weave's semconv). Any attribute not listed here stays in the span's typed custom
// attribute maps. The columns are those of Weave's AgentSpanSchema.

/** How a column's value is read from an attribute. */
export type SemconvType = 'string' | 'int' | 'float' | 'strings' | 'json';

export interface SemconvAttribute {
  readonly column: string;
  readonly type: SemconvType;
  /** Wire keys, most preferred first. */
  readonly keys: readonly string[];
}

const attr = (column: string, type: SemconvType, ...keys: string[]): SemconvAttribute => ({ column, type, keys });
/** The canonical weave.<suffix> key, then gen_ai.<suffix>, then any further aliases. */
const both = (column: string, type: SemconvType, suffix: string, ...more: string[]) =>
  attr(column, type, `weave.${suffix}`, `gen_ai.${suffix}`, ...more);

export const SEMCONV: readonly SemconvAttribute[] = [
  both('operation_name', 'string', 'operation.name'),
  both('provider_name', 'string', 'provider.name', 'weave.system', 'gen_ai.system'),
  both('agent_name', 'string', 'agent.name'),
  both('agent_id', 'string', 'agent.id'),
  both('agent_description', 'string', 'agent.description'),
  both('agent_version', 'string', 'agent.version'),
  both('request_model', 'string', 'request.model'),
  both('response_model', 'string', 'response.model'),
  both('response_id', 'string', 'response.id'),
  both('input_tokens', 'int', 'usage.input_tokens'),
  both('output_tokens', 'int', 'usage.output_tokens'),
  attr(
    'reasoning_tokens',
    'int',
    'weave.usage.reasoning_tokens',
    'gen_ai.usage.reasoning.output_tokens',
    'gen_ai.usage.reasoning_tokens',
    'gen_ai.usage.experimental.reasoning_tokens',
  ),
  both('cache_creation_input_tokens', 'int', 'usage.cache_creation.input_tokens'),
  both(
    'cache_read_input_tokens',
    'int',
    'usage.cache_read.input_tokens',
    'gen_ai.usage.prompt_tokens_details.cached_tokens',
    'gen_ai.usage.input_tokens_details.cached_tokens',
    'prompt_tokens_details.cached_tokens',
  ),
  both('conversation_id', 'string', 'conversation.id', 'gcp.vertex.agent.session_id'),
  both('conversation_name', 'string', 'conversation.name'),
  both('tool_name', 'string', 'tool.name'),
  both('tool_type', 'string', 'tool.type'),
  both('tool_call_id', 'string', 'tool.call.id'),
  both('tool_description', 'string', 'tool.description'),
  both('tool_definitions', 'json', 'tool.definitions'),
  both('tool_call_arguments', 'json', 'tool.call.arguments', 'gcp.vertex.agent.tool_call_args'),
  both('tool_call_result', 'json', 'tool.call.result', 'gcp.vertex.agent.tool_response'),
  both('request_temperature', 'float', 'request.temperature'),
  both('request_max_tokens', 'int', 'request.max_tokens'),
  both('request_top_p', 'float', 'request.top_p'),
  both('request_frequency_penalty', 'float', 'request.frequency_penalty'),
  both('request_presence_penalty', 'float', 'request.presence_penalty'),
  both('request_seed', 'int', 'request.seed'),
  both('request_stop_sequences', 'strings', 'request.stop_sequences'),
  both('request_choice_count', 'int', 'request.choice.count'),
  both('finish_reasons', 'strings', 'response.finish_reasons'),
  both('output_type', 'string', 'output.type'),
  attr('error_type', 'string', 'weave.error.type', 'error.type'),
  attr('server_address', 'string', 'weave.server.address', 'server.address'),
  attr('server_port', 'int', 'weave.server.port', 'server.port'),
  attr('reasoning_content', 'string', 'weave.reasoning_content'),
  attr('compaction_summary', 'string', 'weave.compaction.summary'),
  attr('compaction_items_before', 'int', 'weave.compaction.items_before'),
  attr('compaction_items_after', 'int', 'weave.compaction.items_after'),
  attr('content_refs', 'strings', 'weave.content_refs'),
  attr('artifact_refs', 'strings', 'weave.artifact_refs'),
  attr('object_refs', 'strings', 'weave.object_refs'),
  attr('eval_run_id', 'string', 'weave.eval.run_id'),
  attr('eval_predict_and_score_call_id', 'string', 'weave.eval.predict_and_score_call_id'),
  attr('eval_kind', 'string', 'weave.eval.kind'),
  attr('eval_row_digest', 'string', 'weave.eval.row_digest'),
  attr('eval_example_id', 'string', 'weave.eval.example_id'),
  attr('eval_trial_index', 'int', 'weave.eval.trial_index'),
  attr('eval_evaluation_name', 'string', 'weave.eval.evaluation_name'),
  attr('parent_call_id', 'string', 'weave.parent_call.id'),
  attr('parent_call_trace_id', 'string', 'weave.parent_call.trace_id'),
];

/** Message attributes, read by span-messages.ts (their keys are kept out of the custom maps too). */
export const MESSAGE_KEYS = {
  input: ['weave.input.messages', 'gen_ai.input.messages', 'gen_ai.prompt'],
  output: ['weave.output.messages', 'gen_ai.output.messages', 'weave.completion', 'gen_ai.completion'],
  system: ['weave.system_instructions', 'gen_ai.system_instructions'],
} as const;

/** Every wire key promoted to a column (never also kept as a custom attribute). */
export const PROMOTED_KEYS: ReadonlySet<string> = new Set([
  ...SEMCONV.flatMap((a) => a.keys),
  ...Object.values(MESSAGE_KEYS).flat(),
]);

/**
 * The names a query may use for a column: the column itself, each of its keys, and each key
 * without its `weave.` or `gen_ai.` prefix (`agent.name`), as Weave's FILTERABLE_KEY_TO_COLUMN.
 */
export const FIELD_ALIASES: ReadonlyMap<string, string> = new Map(
  SEMCONV.flatMap((a) => [
    [a.column, a.column] as const,
    ...a.keys.flatMap((k) => {
      const short = k.replace(/^(weave|gen_ai)\./, '');
      return [[k, a.column] as const, [short, a.column] as const];
    }),
  ]),
);
