// Generates the OpenAPI 3.1 document from the route table. TypeBox schemas are JSON
// Schema, which OpenAPI 3.1 embeds as is.
import { ErrorBody, HTTPValidationError, ValidationError } from './common.js';
import type { RouteSpec } from './route-spec.js';
import { WEFT_VERSION } from './meta.js';

const plain = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema ?? {}));

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  501: 'Not implemented',
  503: 'Unavailable',
};

/** OpenAPI parameter objects from an object schema's properties. */
function parametersOf(schema: unknown, where: 'path' | 'query'): unknown[] {
  const obj = plain(schema) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(obj.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (obj.required ?? []).includes(name),
    schema: s,
  }));
}

/** Fastify's `/objs/:object_id` is OpenAPI's `/objs/{object_id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

function operation(route: RouteSpec): Record<string, unknown> {
  const reply = route.reply ?? 'json';
  const media =
    reply === 'jsonl'
      ? 'application/jsonl'
      : reply === 'octet-stream'
        ? 'application/octet-stream'
        : reply === 'prometheus'
          ? 'text/plain'
          : 'application/json';
  const okSchema = reply === 'octet-stream' ? { type: 'string', format: 'binary' } : plain(route.response);
  const binary = { type: 'string', format: 'binary' };
  const okContent =
    reply === 'otlp'
      ? { 'application/x-protobuf': { schema: binary }, 'application/json': { schema: plain(route.response) } }
      : { [media]: { schema: okSchema } };
  const responses: Record<string, unknown> = {
    '200': { description: 'Successful Response', content: okContent },
  };
  if (route.body !== undefined) {
    responses['422'] = {
      description: 'Validation Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
    };
  }
  // Every route behind a key can answer 401 / 403, and 429 when a rate limit is set.
  const statuses = new Set([...(route.errors ?? []), ...(route.open ? [] : [401, 403, 429])]);
  for (const status of [...statuses].sort()) {
    responses[String(status)] = {
      description: STATUS_TEXT[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    };
  }
  const op: Record<string, unknown> = { operationId: route.id, summary: route.summary, tags: [route.tag], responses };
  if (route.body !== undefined) {
    const type = route.requestBody === 'multipart' ? 'multipart/form-data' : 'application/json';
    const content =
      route.requestBody === 'otlp'
        ? { 'application/x-protobuf': { schema: binary }, 'application/json': { schema: plain(route.body) } }
        : { [type]: { schema: plain(route.body) } };
    op.requestBody = { required: true, content };
  }
  const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.querystring, 'query')];
  if (parameters.length > 0) op.parameters = parameters;
  if (!route.open) op.security = [{ HTTPBasic: [] }, { HTTPBearer: [] }];
  return op;
}

export function buildOpenApi(routes: readonly RouteSpec[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Weft',
      version: WEFT_VERSION,
      description: 'Self-hostable trace server speaking the W&B Weave trace-server HTTP API.',
    },
    paths,
    components: {
      schemas: {
        HTTPValidationError: plain(HTTPValidationError),
        ValidationError: plain(ValidationError),
        ErrorBody: plain(ErrorBody),
      },
      securitySchemes: {
        HTTPBasic: { type: 'http', scheme: 'basic' },
        HTTPBearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
