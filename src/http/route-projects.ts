// Where a request names its projects, read once per route from the route's own schemas: every
// `project_id` property its body and query schemas allow (at any depth, through arrays and
// unions), the path's {entity}/{project}, and the projects of the refs in the body fields the
// route lists in `projectRefs`. The schema is the declaration: a new route or resource whose
// body names a project anywhere is checked (auth-guard.ts) and logged (request-log.ts) with no
// edit here. A multipart upload names its project in a form field (auth-guard.ts).
import type { FastifyRequest } from 'fastify';
import type { RouteSpec } from '../api/route-spec.js';
import { tryParseRef } from '../service/refs/refs.js';

/** Every project id a (validated) request names. */
export type ProjectsOf = (body: unknown, query: unknown, params: unknown) => string[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by bindRoute for the routes of the route table. */
    projectsOf?: ProjectsOf;
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A path through a value: property names, and '[]' for every item of an array. */
type Path = readonly string[];

/** The paths of every `project_id` property `schema` allows (deduplicated). */
export function projectIdPaths(schema: unknown): Path[] {
  const out = new Map<string, Path>();
  const walk = (s: unknown, at: Path, depth: number): void => {
    if (!isObj(s) || depth > 16) return;
    for (const k of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(s[k])) for (const branch of s[k]) walk(branch, at, depth + 1);
    if (isObj(s.properties))
      for (const [name, sub] of Object.entries(s.properties)) {
        if (name === 'project_id') out.set([...at, name].join('.'), [...at, name]);
        else walk(sub, [...at, name], depth + 1);
      }
    if (isObj(s.items)) walk(s.items, [...at, '[]'], depth + 1);
  };
  walk(schema, [], 0);
  return [...out.values()];
}

/** The strings found at `path` in `value`. */
function stringsAt(value: unknown, path: Path, out: Set<string>): void {
  if (path.length === 0) {
    if (typeof value === 'string') out.add(value);
    return;
  }
  const [step, ...rest] = path;
  if (step === '[]') {
    if (Array.isArray(value)) for (const item of value) stringsAt(item, rest, out);
  } else if (isObj(value)) stringsAt(value[step!], rest, out);
}

/** The extractor of one route's projects. */
export function compileProjects(spec: Pick<RouteSpec, 'body' | 'querystring' | 'params' | 'projectRefs'>): ProjectsOf {
  const bodyPaths = projectIdPaths(spec.body);
  const queryPaths = projectIdPaths(spec.querystring);
  const params = isObj(spec.params) && isObj(spec.params.properties) ? spec.params.properties : {};
  const inPath = 'entity' in params && 'project' in params;
  const refFields = spec.projectRefs ?? [];
  return (body, query, routeParams) => {
    const out = new Set<string>();
    if (
      inPath &&
      isObj(routeParams) &&
      typeof routeParams.entity === 'string' &&
      typeof routeParams.project === 'string'
    )
      out.add(`${routeParams.entity}/${routeParams.project}`);
    for (const p of queryPaths) stringsAt(query, p, out);
    for (const p of bodyPaths) stringsAt(body, p, out);
    for (const field of refFields) {
      const refs = new Set<string>();
      stringsAt(body, [field, '[]'], refs);
      // Unparseable refs are left to the handler, which answers 400 for them.
      for (const uri of refs) {
        const ref = tryParseRef(uri);
        if (ref !== null) out.add(ref.projectId);
      }
    }
    return [...out];
  };
}

/** The projects a request names; none for a request outside the route table. */
export const projectsOfRequest = (req: FastifyRequest): string[] =>
  req.routeOptions.config?.projectsOf?.(req.body, req.query, req.params) ?? [];
