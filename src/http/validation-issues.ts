// Turns Ajv validation errors into FastAPI-shaped 422 entries: {loc, msg, type}, or a list past
// its bound into a 400.
import { InvalidRequestError, RequestTooLargeError, type ValidationIssue } from '../api/errors.js';
import { TOO_MANY_STATUS } from '../api/limits.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function pathParts(instancePath: string): (string | number)[] {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

export function toValidationIssues(errors: readonly AjvError[], context = 'body'): ValidationIssue[] {
  return errors.map((e) => {
    const loc: (string | number)[] = [context, ...pathParts(e.instancePath)];
    switch (e.keyword) {
      case 'required':
        return { loc: [...loc, String(e.params.missingProperty)], msg: 'Field required', type: 'missing' };
      case 'additionalProperties':
        return {
          loc: [...loc, String(e.params.additionalProperty)],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
        };
      case 'type':
        return { loc, msg: `Input should be of type ${String(e.params.type)}`, type: `${String(e.params.type)}_type` };
      case 'format':
        return {
          loc,
          msg: `Input should be a valid ${String(e.params.format)}`,
          type: `${String(e.params.format)}_parsing`,
        };
      case 'enum':
      case 'const':
      case 'anyOf':
        return {
          loc,
          msg: `Input is not one of the allowed values${e.message ? ` (${e.message})` : ''}`,
          type: 'literal_error',
        };
      default:
        return { loc, msg: e.message ?? `failed ${e.keyword}`, type: e.keyword };
    }
  });
}

interface VerboseAjvError extends AjvError {
  parentSchema?: Record<string, unknown>;
  data?: unknown;
}

/**
 * A list past its `maxItems` (api/limits.ts) as a clear 400 naming the list and the bound (or
 * the status its schema gives, TOO_MANY_STATUS); null for any other validation error.
 */
export function tooManyItems(
  errors: readonly VerboseAjvError[],
  context = 'body',
): InvalidRequestError | RequestTooLargeError | null {
  const e = errors[0];
  if (e?.keyword !== 'maxItems') return null;
  const where = [context, ...pathParts(e.instancePath)].join('.');
  const given = Array.isArray(e.data) ? ` (${e.data.length} given)` : '';
  const message = `Too many items in ${where}: at most ${String(e.params.limit)} are allowed${given}`;
  return e.parentSchema?.[TOO_MANY_STATUS] === 413
    ? new RequestTooLargeError(message)
    : new InvalidRequestError(message);
}
