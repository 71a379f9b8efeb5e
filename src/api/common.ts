// Schemas shared by several resources. TypeBox schemas are the single source of
// request validation, TypeScript types and the OpenAPI document.
import { Type, type Static } from 'typebox';

/** `T | null`, optional: the Python SDK sends every optional field, often as null. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Optional(Type.Union([t, Type.Null()]));

/** Timestamps: ISO 8601; a value without a zone is taken as UTC. */
export const DateTime = Type.String({ format: 'date-time' });

export const ProjectId = Type.String({
  minLength: 1,
  description: 'Project, as "<entity>/<project>"',
});

/** Free-form JSON object (nested models are lenient: unknown keys are kept). */
export const AnyObject = Type.Record(Type.String(), Type.Unknown());
export const AnyValue = Type.Unknown();

export const SortDirection = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
export const SortBy = Type.Object(
  { field: Type.String({ minLength: 1 }), direction: SortDirection },
  { additionalProperties: false },
);
export type SortBy = Static<typeof SortBy>;

/** Integers a JavaScript number holds exactly (and SQLite can bind): |n| < 2^53. */
export const SafeInteger = (opts: { minimum?: number; description?: string } = {}) =>
  Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...opts });

export const Limit = Nullable(SafeInteger({ minimum: 0 }));
export const Offset = Nullable(SafeInteger({ minimum: 0 }));

export const EmptyRes = Type.Object({});

export const ValidationError = Type.Object({
  loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
  msg: Type.String(),
  type: Type.String(),
});
export const HTTPValidationError = Type.Object({ detail: Type.Optional(Type.Array(ValidationError)) });

/** Body of every non-validation error. */
export const ErrorBody = Type.Object(
  {
    reason: Type.String(),
    error_code: Type.String(),
    error_type: Type.String(),
  },
  { additionalProperties: true },
);

/** Strict request object: unknown top-level keys are a 422, as in Weave's BaseModelStrict. */
export const Strict = <P extends Parameters<typeof Type.Object>[0]>(props: P, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) });
