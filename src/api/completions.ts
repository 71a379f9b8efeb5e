// Request and response schemas of the model routes: Weave's /completions/create and
// /completions/create_stream (the playground and online judges call a model through them), and
// Weft's /completions/models (which models a project can call, and which secret each lacks).
import { Type, type Static } from 'typebox';
import { AnyObject, Nullable, ProjectId, Strict } from './common.js';
import { DataList } from './limits.js';
import { defineRoute } from './route-spec.js';

/**
 * The model call: `model` and `messages`, the OpenAI Chat Completions parameters, and Weave's
 * own `prompt` (a ref to a MessagesPrompt, prepended) with `template_vars` (filled into every
 * non-assistant message). Unknown keys are kept and passed on, as Weave's litellm call does.
 */
export const CompletionInputs = Type.Object(
  {
    model: Type.String({
      minLength: 1,
      description: 'gpt-4o, claude-..., <provider>/<model>, or custom::<provider>::<model>',
    }),
    messages: Type.Optional(DataList(AnyObject)),
    temperature: Nullable(Type.Number()),
    top_p: Nullable(Type.Number()),
    n: Nullable(Type.Integer({ minimum: 1, maximum: 16 })),
    stop: Nullable(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 16 })])),
    max_tokens: Nullable(Type.Integer({ minimum: 1 })),
    max_completion_tokens: Nullable(Type.Integer({ minimum: 1 })),
    presence_penalty: Nullable(Type.Number()),
    frequency_penalty: Nullable(Type.Number()),
    seed: Nullable(Type.Integer()),
    response_format: Nullable(AnyObject),
    tools: Nullable(DataList(AnyObject)),
    tool_choice: Nullable(Type.Union([Type.String(), AnyObject])),
    parallel_tool_calls: Nullable(Type.Boolean()),
    reasoning_effort: Nullable(Type.String()),
    timeout: Nullable(Type.Number({ exclusiveMinimum: 0, description: 'Seconds' })),
    prompt: Nullable(Type.String({ description: 'A MessagesPrompt: weave:/// ref, name:version or name' })),
    template_vars: Nullable(AnyObject),
  },
  { additionalProperties: true },
);
export type CompletionInputs = Static<typeof CompletionInputs>;

export const CompletionsCreateReq = Strict({
  project_id: ProjectId,
  inputs: CompletionInputs,
  wb_user_id: Nullable(Type.String({ description: 'Ignored: the caller is the key holder' })),
  track_llm_call: Type.Optional(Type.Boolean({ default: true })),
  trace_id: Nullable(Type.String({ description: 'Nest the tracked call in this trace…' })),
  parent_id: Nullable(Type.String({ description: '…under this call' })),
  conversation_id: Nullable(Type.String()),
  conversation_name: Nullable(Type.String()),
  source: Nullable(Type.String({ description: 'Who asks: "playground", "signals"' })),
});
export type CompletionsCreateReq = Static<typeof CompletionsCreateReq>;

export const CompletionsCreateRes = Type.Object({
  response: Type.Record(Type.String(), Type.Unknown(), {
    description: "The provider's chat.completion, or {error, status_code?} when the call failed",
  }),
  weave_call_id: Nullable(Type.String()),
  span_id: Nullable(Type.String()),
  trace_id: Nullable(Type.String()),
  conversation_id: Nullable(Type.String()),
});

/** One line of the stream: {_meta}, then chat.completion.chunk objects, or one {error} line. */
export const CompletionsStreamLine = Type.Record(Type.String(), Type.Unknown());

export const CompletionsModelsReq = Strict({ project_id: ProjectId });
export const CompletionModel = Type.Object({
  /** What to send as inputs.model. */
  id: Type.String(),
  provider: Type.String(),
  /** The name the provider knows the model by. */
  name: Type.String(),
  max_tokens: Nullable(Type.Integer()),
});
export const CompletionProvider = Type.Object({
  name: Type.String(),
  kind: Type.Union([Type.Literal('builtin'), Type.Literal('custom')]),
  base_url: Type.String(),
  /** The secret holding its API key. */
  secret_name: Type.String(),
  /** Whether the project's entity (or the server's environment) holds that secret. */
  secret_set: Type.Boolean(),
  /** Custom providers: the Provider object's ref. */
  ref: Nullable(Type.String()),
  models: Type.Array(CompletionModel),
});
export const CompletionsModelsRes = Type.Object({ providers: Type.Array(CompletionProvider) });
export type CompletionsModelsRes = Static<typeof CompletionsModelsRes>;

const tag = 'Completions';
export const completionsRoutes = {
  completionsCreate: defineRoute({
    access: 'write',
    id: 'completions_create',
    method: 'POST',
    path: '/completions/create',
    tag,
    summary: "Call a model and record the call (a provider's failure is a 200 with response.error, as Weave's)",
    body: CompletionsCreateReq,
    response: CompletionsCreateRes,
    carriesData: true,
    errors: [400, 401, 403],
  }),
  completionsCreateStream: defineRoute({
    access: 'write',
    id: 'completions_create_stream',
    method: 'POST',
    path: '/completions/create_stream',
    tag,
    summary: 'Call a model, streaming: a {_meta} line, then chat.completion.chunk lines (or one {error} line)',
    body: CompletionsCreateReq,
    response: CompletionsStreamLine,
    reply: 'jsonl',
    carriesData: true,
    errors: [400, 401, 403],
  }),
  completionsModels: defineRoute({
    access: 'read',
    id: 'completions_models',
    method: 'POST',
    path: '/completions/models',
    tag,
    summary: "The models a project can call: builtin providers and the project's Provider objects",
    body: CompletionsModelsReq,
    response: CompletionsModelsRes,
    errors: [400, 401, 403],
  }),
} as const;
