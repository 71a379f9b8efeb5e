// POST /otel/v1/traces (and its aliases): OTLP/HTTP trace export. These routes read their
// body raw (protobuf or JSON, maybe compressed), so they live in a scope of their own whose
// only body parser keeps the bytes; auth and errors are the app's, as on every route.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { otlpRoutes } from '../../api/otlp.js';
import { servedPaths } from '../../api/route-spec.js';
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

function answer(encoding: OtlpEncoding, result: ExportResult): { type: string; body: Buffer | string } {
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

export async function registerOtlpRoutes(app: FastifyInstance, calls: CallsService, bodyLimit: number): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    for (const spec of Object.values(otlpRoutes))
      for (const url of servedPaths(spec))
        scope.post(url, async (req, reply) => {
          const encoding = encodingOf(header(req, 'content-type'));
          const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const exp = decodeExport(inflate(raw, header(req, 'content-encoding'), bodyLimit), encoding);
          const named = header(req, 'project_id');
          const projects = resourceProjects(exp, named);
          // The header's project is checked even for an export with no spans.
          for (const projectId of new Set(named ? [named, ...projects] : projects)) {
            if (!mayAccessProject(req.weft.access, projectId, 'write'))
              throw new ForbiddenError(`No write access to project ${projectId}`);
          }
          const out = answer(encoding, await ingestExport(exp, projects, calls, req.weft));
          return reply.type(out.type).send(out.body);
        });
  });
}
