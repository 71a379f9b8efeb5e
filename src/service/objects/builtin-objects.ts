// Builtin object classes Weft validates and normalizes on /obj/create (weave-objects.md §0.3):
// a value sent with `builtin_object_class` and without its own class envelope is checked
// against the class's schema (src/api/builtin-objects.ts; a 400 naming the field) and its
// validators, then stored as Weave stores it: `_type`, every field in declaration order with
// its default, `_class_name`, `_bases`. A class outside this registry keeps the rule of
// object-classes.ts (accepted when the value declares exactly that class).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from 'typebox';
import { InvalidRequestError } from '../../api/errors.js';
import {
  AnnotationSpecVal,
  LeaderboardVal,
  LLMStructuredCompletionModelVal,
  ProviderModelVal,
  ProviderVal,
  SavedViewVal,
} from '../../api/builtin-objects.js';

interface BuiltinClass {
  readonly schema: TSchema;
  /** Field names in declaration order, each with its default (undefined: required). */
  readonly fields: readonly (readonly [string, unknown])[];
  /** Checks beyond the schema, on the validated value; throws InvalidRequestError. */
  readonly check?: (val: Record<string, unknown>) => void;
  /** Nested models dumped as Weave dumps them (their own `_type`, defaults, `_class_name`, `_bases`). */
  readonly nested?: Readonly<Record<string, (v: unknown) => unknown>>;
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A nested pydantic model as Weave stores it: `_type`, each field (default null), `_class_name`, `_bases`. */
const model =
  (className: string, fields: readonly string[]) =>
  (v: unknown): unknown => {
    if (!isDict(v)) return v;
    const out: Dict = { _type: className };
    for (const f of fields) out[f] = v[f] ?? null;
    out._class_name = className;
    out._bases = ['BaseModel'];
    return out;
  };

const DEFAULT_PARAMS = model('LLMStructuredCompletionModelDefaultParams', [
  'messages_template',
  'prompt',
  'temperature',
  'top_p',
  'max_tokens',
  'presence_penalty',
  'frequency_penalty',
  'stop',
  'n_times',
  'functions',
  'response_format',
]);
const COLUMN = model('LeaderboardColumn', [
  'evaluation_object_ref',
  'scorer_name',
  'summary_metric_path',
  'should_minimize',
]);

/** Headers a provider may not be given: they unlock cloud metadata services (Weave's list). */
const BLOCKED_HEADER = /^(?:metadata-flavor|x-aws-ec2-metadata-token(?:-ttl-seconds)?)$/i;
const INVALID_BASE_URL = 'base_url is not a valid provider URL';

/**
 * An http(s) URL without a query or fragment. Weave also refuses addresses that are not public;
 * Weft checks the address when it connects (src/outbound/), where an operator may allow a host
 * such as Ollama on localhost (docs/outbound.md).
 */
function checkBaseUrl(url: string): void {
  if (url.includes('?') || url.includes('#')) throw new InvalidRequestError(INVALID_BASE_URL);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRequestError(INVALID_BASE_URL);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '')
    throw new InvalidRequestError(INVALID_BASE_URL);
}

const BASE: readonly (readonly [string, unknown])[] = [
  ['name', null],
  ['description', null],
];

export const BUILTIN_OBJECT_CLASSES: Readonly<Record<string, BuiltinClass>> = {
  Provider: {
    schema: ProviderVal,
    fields: [
      ...BASE,
      ['base_url', undefined],
      ['api_key_name', undefined],
      ['extra_headers', {}],
      ['return_type', 'openai'],
    ],
    check(val) {
      checkBaseUrl(String(val.base_url));
      for (const key of Object.keys((val.extra_headers as Record<string, string> | undefined) ?? {}))
        if (BLOCKED_HEADER.test(key)) throw new InvalidRequestError('extra_headers contains a disallowed header');
    },
  },
  ProviderModel: {
    schema: ProviderModelVal,
    fields: [
      ['name', undefined],
      ['description', null],
      ['provider', undefined],
      ['max_tokens', undefined],
    ],
  },
  AnnotationSpec: {
    schema: AnnotationSpecVal,
    fields: [...BASE, ['field_schema', {}], ['unique_among_creators', false], ['op_scope', null]],
    check(val) {
      // The schema must itself be a JSON Schema a validator can compile.
      try {
        new Ajv({ strict: false }).compile((val.field_schema as Dict | undefined) ?? {});
      } catch (err) {
        throw new InvalidRequestError(
          `Invalid AnnotationSpec: field_schema is no JSON Schema: ${(err as Error).message}`,
        );
      }
    },
  },
  LLMStructuredCompletionModel: {
    schema: LLMStructuredCompletionModelVal,
    fields: [...BASE, ['llm_model_id', undefined], ['default_params', {}]],
    nested: { default_params: DEFAULT_PARAMS },
  },
  SavedView: {
    schema: SavedViewVal,
    fields: [...BASE, ['view_type', undefined], ['label', undefined], ['definition', undefined]],
  },
  Leaderboard: {
    schema: LeaderboardVal,
    fields: [...BASE, ['columns', undefined]],
    nested: { columns: (v) => (Array.isArray(v) ? v.map(COLUMN) : v) },
  },
};

const ajv = new Ajv({ coerceTypes: false, useDefaults: false, allErrors: false, strict: false });
const validators = new Map<string, ValidateFunction>();

/** `val.base_url: must be string`, and the like. */
function describe(e: ErrorObject): string {
  const missing = e.keyword === 'required' ? `.${String(e.params.missingProperty)}` : '';
  return `val${e.instancePath.replaceAll('/', '.')}${missing}: ${e.keyword === 'required' ? 'required' : e.message}`;
}

/**
 * The value as Weave stores an object of `className` created from bare fields, or null when
 * Weft does not validate that class.
 */
export function builtinObjectVal(className: string, val: Record<string, unknown>): Record<string, unknown> | null {
  const cls = Object.hasOwn(BUILTIN_OBJECT_CLASSES, className) ? BUILTIN_OBJECT_CLASSES[className]! : null;
  if (cls === null) return null;
  let validate = validators.get(className);
  if (validate === undefined) validators.set(className, (validate = ajv.compile(cls.schema)));
  if (!validate(val))
    throw new InvalidRequestError(`Invalid ${className}: ${(validate.errors ?? []).map(describe).join('; ')}`);
  cls.check?.(val);
  const out: Record<string, unknown> = { _type: className };
  for (const [field, fallback] of cls.fields) {
    const v = val[field] ?? fallback;
    out[field] = cls.nested?.[field]?.(v) ?? v;
  }
  out._class_name = className;
  out._bases = ['BaseObject', 'BaseModel'];
  return out;
}
