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
