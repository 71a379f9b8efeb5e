// The one access check, at the edge, from the route spec: after the body is validated,
// every project the request names must be readable (read routes) or writable (write
// routes, admin role for admin routes) by the caller. The projects a request names: the path's
// {entity}/{project}, ?project_id=, body.project_id,
// the project_id of body.start / end / obj / table, of each body.batch item (and its
// req.start / req.end), and the project of each ref in body.refs. A multipart upload
// names its project in a form field, checked as the field streams in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { RouteAccess } from '../api/route-spec.js';
import { isAdmin, mayAccessProject, type AccessLevel } from '../service/auth/auth-access.js';
import { ForbiddenError } from '../service/auth/auth-errors.js';
import { tryParseRef } from '../service/refs/refs.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every project id a (validated) request names; `params` are its path parameters. */
export function projectsNamed(body: unknown, query: unknown, params: unknown = undefined): string[] {
  const out = new Set<string>();
  const add = (v: unknown) => {
    if (isObj(v) && typeof v.project_id === 'string') out.add(v.project_id);
  };
  // The v2 routes name their project in the path: /v2/{entity}/{project}/...
  if (isObj(params) && typeof params.entity === 'string' && typeof params.project === 'string')
    out.add(`${params.entity}/${params.project}`);
  add(query);
  if (!isObj(body)) return [...out];
  add(body);
  for (const k of ['start', 'end', 'obj', 'table']) add(body[k]);
  if (Array.isArray(body.batch)) {
    for (const item of body.batch) {
      add(item);
      if (isObj(item) && isObj(item.req)) {
        add(item.req.start);
        add(item.req.end);
      }
    }
  }
  if (Array.isArray(body.refs)) {
    // Unparseable refs are left to the handler, which answers 400 for them.
    for (const uri of body.refs)
      if (typeof uri === 'string') {
        const ref = tryParseRef(uri);
        if (ref !== null) out.add(ref.projectId);
      }
  }
  return [...out];
}

function check(req: FastifyRequest, projectId: string, level: AccessLevel): void {
  if (!mayAccessProject(req.weft.access, projectId, level)) {
    throw new ForbiddenError(`No ${level} access to project ${projectId}`);
  }
}

/** The upload's parts, refused at its project_id field when the caller may not write there. */
async function* guardedParts(req: FastifyRequest, source: AsyncIterableIterator<Multipart>): AsyncGenerator<Multipart> {
  for await (const part of source) {
    if (part.type === 'field' && part.fieldname === 'project_id') check(req, String(part.value), 'write');
    yield part;
  }
}

export function registerAuthGuard(
  app: FastifyInstance,
  accessOf: (req: FastifyRequest) => RouteAccess | undefined,
  multipart: (req: FastifyRequest) => boolean,
): void {
  app.addHook('preHandler', async (req) => {
    const access = accessOf(req);
    if (access === undefined || access === 'open' || req.weft.access.all) return;
    // Keyless, a monitor route was let in as a trusted monitor (request-context.ts); with a key, an admin's.
    if (access === 'monitor') {
      if (req.weft.keyId !== null && !isAdmin(req.weft.access)) throw new ForbiddenError('Admin role required');
      return;
    }
    const projects = projectsNamed(req.body, req.query, req.params);
    // An admin route about projects needs the admin role on each; others (keys) any admin role.
    if (access === 'admin' && projects.length === 0) {
      if (!isAdmin(req.weft.access)) throw new ForbiddenError('Admin role required');
      return;
    }
    for (const projectId of projects) check(req, projectId, access);
    if (multipart(req) && typeof req.parts === 'function') {
      const parts = req.parts.bind(req);
      req.parts = ((options?: Parameters<typeof parts>[0]) => guardedParts(req, parts(options))) as typeof req.parts;
    }
  });
}
