// The values of Weave's builtin object classes that Weft validates on /obj/create when a client
// names the class (`builtin_object_class`) and sends the bare fields, as Weave's UI does
// (../shared/spec/weave-objects.md §0.3, §4). Fields as Weave's pydantic classes declare them;
// other keys are ignored, as pydantic ignores them. Both derive from Weave's BaseObject.
import { Type, type Static } from 'typebox';
import { Nullable } from './common.js';

const BaseObjectFields = {
  name: Type.Optional(Nullable(Type.String())),
  description: Type.Optional(Nullable(Type.String())),
};

/** A custom OpenAI-compatible provider: where it is, and the name of the secret holding its key. */
export const ProviderVal = Type.Object({
  ...BaseObjectFields,
  base_url: Type.String(),
  /** The name of a secret (weft secrets), never the key itself. */
  api_key_name: Type.String(),
  extra_headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  return_type: Type.Optional(Type.Literal('openai')),
});
export type ProviderVal = Static<typeof ProviderVal>;

/** A model of a custom provider: its upstream name, its provider's object id, its token bound. */
export const ProviderModelVal = Type.Object({
  ...BaseObjectFields,
  /** The model's name at the provider (what is sent upstream). */
  name: Type.String(),
  /** The Provider's object id (or a ref to it). */
  provider: Type.String(),
  max_tokens: Type.Integer(),
});
export type ProviderModelVal = Static<typeof ProviderModelVal>;

/** A human annotation's spec: `wandb.annotation.<name>` feedback must satisfy `field_schema`. */
export const AnnotationSpecVal = Type.Object({
  ...BaseObjectFields,
  /** A JSON Schema for the feedback's `payload.value`. */
  field_schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  unique_among_creators: Type.Optional(Type.Boolean()),
  /** Op refs the spec is offered for (a display filter). */
  op_scope: Type.Optional(Nullable(Type.Array(Type.String()))),
});

/** A judge model: the model id /completions/create takes and its default parameters. */
export const LLMStructuredCompletionModelVal = Type.Object({
  ...BaseObjectFields,
  llm_model_id: Type.String({ minLength: 1 }),
  default_params: Type.Optional(
    Nullable(
      Type.Object({
        messages_template: Type.Optional(Nullable(Type.Array(Type.Record(Type.String(), Type.Unknown())))),
        prompt: Type.Optional(Nullable(Type.String())),
        temperature: Type.Optional(Nullable(Type.Number())),
        top_p: Type.Optional(Nullable(Type.Number())),
        max_tokens: Type.Optional(Nullable(Type.Integer())),
        presence_penalty: Type.Optional(Nullable(Type.Number())),
        frequency_penalty: Type.Optional(Nullable(Type.Number())),
        stop: Type.Optional(Nullable(Type.Array(Type.String()))),
        n_times: Type.Optional(Nullable(Type.Integer())),
        functions: Type.Optional(Nullable(Type.Array(Type.Record(Type.String(), Type.Unknown())))),
        response_format: Type.Optional(
          Nullable(
            Type.Union([
              Type.Literal('json_object'),
              Type.Literal('json_schema'),
              Type.Literal('text'),
              Type.Literal('json'),
            ]),
          ),
        ),
      }),
    ),
  ),
});

/** A saved table view: what it shows (`view_type`), its name in lists (`label`), its state. */
export const SavedViewVal = Type.Object({
  ...BaseObjectFields,
  view_type: Type.String({ minLength: 1 }),
  label: Type.String(),
  definition: Type.Record(Type.String(), Type.Unknown()),
});

export const LeaderboardColumnVal = Type.Object({
  evaluation_object_ref: Type.String({ pattern: '^weave:///' }),
  scorer_name: Type.String(),
  summary_metric_path: Type.String(),
  should_minimize: Type.Optional(Nullable(Type.Boolean())),
});

/** Models ranked per column: an evaluation's scorer metric and its direction. */
export const LeaderboardVal = Type.Object({
  ...BaseObjectFields,
  columns: Type.Array(LeaderboardColumnVal),
});
