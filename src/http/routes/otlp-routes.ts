// POST /otel/v1/traces (and its aliases): OTLP/HTTP trace export. These routes read their
// body raw (protobuf or JSON, maybe compressed), so they live in a scope of their own whose
// only body parser keeps the bytes; auth and errors are the app's, as on every route.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { otlpRoutes } from '../../api/otlp.js';
import { servedPaths, type RouteSpec } from '../../api/route-spec.js';
import type { OtlpExport } from '../../ingest/otlp/otlp-spans.js';
import { mayAccessProject } from '../../service/auth/auth-access.js';
import { ForbiddenError } from '../../service/auth/auth-errors.js';
import type { CallsService } from '../../service/calls/calls-service.js';
import { decodeExport, encodingOf, inflate, type OtlpEncoding } from '../../ingest/otlp/otlp-decode.js';
import { ingestExport, resourceProjects, type ExportResult } from '../../ingest/otlp/otlp-ingest.js';
import { encodeProtobufResponse } from '../../ingest/otlp/otlp-proto.js';

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The OTLP answer to an export: protobuf or JSON as the request was, partialSuccess when spans were rejected. */
export function otlpAnswer(encoding: OtlpEncoding, result: ExportResult): { type: string; body: Buffer | string } {
  if (encoding === 'protobuf')
    return {
      type: 'application/x-protobuf',
      body: Buffer.from(encodeProtobufResponse(result.rejected, result.message)),
    };
  const body =
    result.rejected > 0
      ? { partialSuccess: { rejectedSpans: String(result.rejected), errorMessage: result.message } }
      : {};
  return { type: 'application/json', body: JSON.stringify(body) };
}

/** Which projects an export writes to (null: a resource that names none), decided by the route. */
export type ExportProjects = (exp: OtlpExport, header: string | undefined) => readonly (string | null)[];

/**
 * Serves OTLP export routes: decode the body, check write access to the project_id header's
 * project (even for an export with no spans) and every project the export names, then ingest.
 */
export async function registerOtlpScope(
  app: FastifyInstance,
  specs: readonly RouteSpec[],
  bodyLimit: number,
  projectsOf: ExportProjects,
  ingest: (exp: OtlpExport, projects: readonly (string | null)[], req: FastifyRequest) => Promise<ExportResult>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    for (const spec of specs)
      for (const url of servedPaths(spec))
        scope.post(url, async (req, reply) => {
          const encoding = encodingOf(header(req, 'content-type'));
          const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const exp = decodeExport(inflate(raw, header(req, 'content-encoding'), bodyLimit), encoding);
          const named = header(req, 'project_id');
          const projects = projectsOf(exp, named);
          const listed = projects.filter((p): p is string => p !== null);
          for (const projectId of new Set(named ? [named, ...listed] : listed)) {
            if (!mayAccessProject(req.weft.access, projectId, 'write'))
              throw new ForbiddenError(`No write access to project ${projectId}`);
          }
          const out = otlpAnswer(encoding, await ingest(exp, projects, req));
          return reply.type(out.type).send(out.body);
        });
  });
}

export function registerOtlpRoutes(app: FastifyInstance, calls: CallsService, bodyLimit: number): Promise<void> {
  return registerOtlpScope(app, Object.values(otlpRoutes), bodyLimit, resourceProjects, (exp, projects, req) =>
    ingestExport(exp, projects as string[], calls, req.weft),
  );
}
