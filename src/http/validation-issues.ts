// Turns Ajv validation errors into FastAPI-shaped 422 entries: {loc, msg, type}.
import type { ValidationIssue } from '../api/errors.js';

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
        return { loc: [...loc, String(e.params.additionalProperty)], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' };
      case 'type':
        return { loc, msg: `Input should be of type ${String(e.params.type)}`, type: `${String(e.params.type)}_type` };
      case 'format':
        return { loc, msg: `Input should be a valid ${String(e.params.format)}`, type: `${String(e.params.format)}_parsing` };
      case 'enum':
      case 'const':
      case 'anyOf':
        return { loc, msg: `Input is not one of the allowed values${e.message ? ` (${e.message})` : ''}`, type: 'literal_error' };
      default:
        return { loc, msg: e.message ?? `failed ${e.keyword}`, type: e.keyword };
    }
  });
}
