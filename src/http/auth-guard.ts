// The one access check, at the edge, from the route spec: after the body is validated,
// every project the request names must be readable (read routes) or writable (write
// routes, admin role for admin routes) by the caller. The projects a request names are read
// from its route's schemas (route-projects.ts). A multipart upload names its project in a form
// field, checked as the field streams in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { RouteAccess } from '../api/route-spec.js';
import { isAdmin, mayAccessProject, type AccessLevel } from '../service/auth/auth-access.js';
import { ForbiddenError } from '../service/auth/auth-errors.js';
import { projectsOfRequest } from './route-projects.js';

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
    const projects = projectsOfRequest(req);
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
