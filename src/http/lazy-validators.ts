// Request validators compiled on first use, once per process. Fastify compiles every route's
// schemas when the app starts: ~0.5 s of Ajv code generation for Weft's ~150 routes, paid by
// every server start and every test process, though a process rarely meets most routes. Here a
// route's validator is compiled the first time a request reaches it (a few ms, once), by one
// Ajv instance shared by every app of the process; the options are those Fastify's own compiler
// would use with Weft's settings (app.ts), so validation and its errors are unchanged.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { isTimestamp } from '../time.js';

/**
 * Fastify's defaults (@fastify/ajv-compiler; its URI resolver is Ajv's own, fast-uri), then
 * Weft's strict request models: keep what the client sent, no coercion, defaults applied.
 */
const OPTIONS = {
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
  addUsedSchema: false,
  allErrors: false,
  strict: false,
  // Errors carry their schema, so a list past its bound is told by its own (validation-issues.ts).
  verbose: true,
} as const;

let shared: Ajv | null = null;
function ajv(): Ajv {
  if (shared === null) {
    shared = new Ajv(OPTIONS);
    addFormats.default(shared);
    // After ajv-formats, so this definition wins: timestamps may omit the zone (naive = UTC,
    // as the Python SDK may send them).
    shared.addFormat('date-time', { type: 'string', validate: isTimestamp });
  }
  return shared;
}

const compiled = new WeakMap<object, ValidateFunction>();

type Lazy = ((data: unknown, ctx?: unknown) => boolean) & {
  errors?: FastifySchemaValidationError[] | null;
  schemaEnv?: unknown;
};

/** A validator for `schema` that compiles it when first called (Fastify's validator contract). */
export function lazyValidator(schema: object): Lazy {
  let fn = compiled.get(schema) ?? null;
  const validate: Lazy = (data, ctx) => {
    if (fn === null) {
      fn = ajv().compile(schema);
      compiled.set(schema, fn);
    }
    return (ctx === undefined ? fn(data) : fn(data, ctx as never)) as boolean;
  };
  Object.defineProperty(validate, 'errors', { get: () => (fn?.errors ?? null) as Lazy['errors'] });
  // Fastify passes the request as the root's parent to a compiled Ajv function (it tells one
  // by this property), which lets Ajv apply defaults at the root as it would unwrapped.
  validate.schemaEnv = true;
  return validate;
}
