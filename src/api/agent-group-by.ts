// A group key of the agent span reads (/agents/spans/query, /agents/spans/stats): a span field
// (`field`, or `column` as older callers say) or a custom attribute's key, with an output alias.
import { Type } from 'typebox';
import { Nullable, Strict } from './common.js';

export const AgentGroupByRef = Strict({
  source: Type.Optional(
    Type.Union(
      ['field', 'column', 'custom_attrs_string', 'custom_attrs_int', 'custom_attrs_float', 'custom_attrs_bool'].map(
        (v) => Type.Literal(v),
      ),
    ),
  ),
  key: Type.String({ minLength: 1, maxLength: 500 }),
  alias: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
});
