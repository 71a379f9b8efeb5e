// Request and response schemas of the files endpoints (weave-api.md §1.19-1.20, §2, §3.2).
// The TS SDK uses the singular paths, the Python SDK the plural ones: both are served.
import { Type, type Static } from 'typebox';
import { ProjectId, Strict } from './common.js';
import { defineRoute } from './route-spec.js';

/**
 * The multipart/form-data body of file create. Documents the form for OpenAPI only: the
 * handler reads the parts as they stream in and validates them itself (422 when
 * project_id or the file part is missing).
 */
export const FileCreateForm = Type.Object({
  project_id: ProjectId,
  file: Type.String({
    format: 'binary',
    description: 'The content; its filename is ignored (the TS SDK always sends "blob")',
  }),
  expected_digest: Type.Optional(
    Type.String({ description: 'When given, must equal the digest the server computes (else 409)' }),
  ),
});

export const FileCreateRes = Type.Object({
  digest: Type.String({
    description: 'SHA-256 of the bytes, URL-safe base64 without padding, "-"->"X", "_"->"Y" (43 chars)',
  }),
});
export type FileCreateRes = Static<typeof FileCreateRes>;

export const FileContentReq = Strict({ project_id: ProjectId, digest: Type.String() });
export type FileContentReq = Static<typeof FileContentReq>;
/** The 200 answer of file content is the raw bytes; this documents it. */
export const FileContentRes = Type.String({ format: 'binary' });

export const FilesStatsReq = Strict({ project_id: ProjectId });
export type FilesStatsReq = Static<typeof FilesStatsReq>;
export const FilesStatsRes = Type.Object({ total_size_bytes: Type.Integer({ minimum: 0 }) });
export type FilesStatsRes = Static<typeof FilesStatsRes>;

const tag = 'Files';
const create = {
  tag,
  body: FileCreateForm,
  requestBody: 'multipart',
  carriesData: true,
  response: FileCreateRes,
  errors: [400, 409, 413],
} as const;
const content = { tag, body: FileContentReq, reply: 'octet-stream', response: FileContentRes, errors: [404] } as const;

export const filesRoutes = {
  fileCreate: defineRoute({
    access: 'write',
    id: 'file_create',
    method: 'POST',
    path: '/file/create',
    summary: 'Store a file (idempotent per content)',
    ...create,
  }),
  filesCreate: defineRoute({
    access: 'write',
    id: 'files_create',
    method: 'POST',
    path: '/files/create',
    summary: "Store a file (the Python SDK's path)",
    ...create,
  }),
  fileContent: defineRoute({
    access: 'read',
    id: 'file_content',
    method: 'POST',
    path: '/file/content',
    summary: "Read a file's bytes",
    ...content,
  }),
  filesContent: defineRoute({
    access: 'read',
    id: 'files_content',
    method: 'POST',
    path: '/files/content',
    summary: "Read a file's bytes (the Python SDK's path)",
    ...content,
  }),
  filesStats: defineRoute({
    access: 'read',
    id: 'files_stats',
    method: 'POST',
    path: '/files/stats',
    tag,
    summary: "Total size of a project's files",
    body: FilesStatsReq,
    response: FilesStatsRes,
  }),
  filesQueryStats: defineRoute({
    access: 'read',
    id: 'files_query_stats',
    method: 'POST',
    path: '/files/query_stats',
    tag,
    summary: "Total size of a project's files (the path of Weave's published API)",
    body: FilesStatsReq,
    response: FilesStatsRes,
  }),
} as const;
