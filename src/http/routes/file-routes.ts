// Binds the files routes. File create reads its multipart/form-data parts as they stream
// in (@fastify/multipart, registered in app.ts with fileSize = the app's bodyLimit): the
// file part goes to the store piece by piece while it is hashed, the text fields are
// collected, and only after the last part - Python may send expected_digest after the
// file - is the request validated and the file published. File content streams the
// stored chunks back as they are read.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { filesRoutes as r, type FileCreateRes } from '../../api/files.js';
import {
  InvalidRequestError,
  RequestTooLargeError,
  RequestValidationError,
  WeftError,
  type ValidationIssue,
} from '../../api/errors.js';
import type { FileStore } from '../../storage/files/file-store.js';
import type { Store } from '../../storage/store.js';
import {
  commitFile,
  discardFile,
  fileStats,
  openFile,
  stageFile,
  type StagedFile,
} from '../../service/files/file-service.js';
import { bindRoute } from '../bind-route.js';

/** @fastify/multipart's limit errors (parts, files, fields, file size): all are 413. */
const LIMIT_CODES: ReadonlySet<string> = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_PARTS_LIMIT',
  'FST_FILES_LIMIT',
  'FST_FIELDS_LIMIT',
]);

const tooLarge = (limit: number) => new RequestTooLargeError(`Request too large: the limit is ${limit} bytes`);

/**
 * Errors raised while reading the client's bytes are the client's: a limit is a 413, a
 * malformed or interrupted body a 400. Store and server errors never pass through here.
 */
function clientError(err: unknown, limit: number): WeftError {
  if (err instanceof WeftError) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && LIMIT_CODES.has(code)) return tooLarge(limit);
  return new InvalidRequestError(`Malformed multipart body: ${err instanceof Error ? err.message : String(err)}`);
}

/** The same items, with errors of the source (the request stream) turned into client errors. */
async function* fromClient<T>(source: AsyncIterable<T>, limit: number): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (err) {
    throw clientError(err, limit);
  }
}

const missing = (field: string): ValidationIssue => ({ loc: ['body', field], msg: 'Field required', type: 'missing' });

/** What the form said besides the content. */
interface FormFields {
  projectId?: string;
  expectedDigest?: string;
  /** A `file` part that came as a plain text field instead of an upload. */
  fileAsText: boolean;
}

/** FastAPI's answers for a form without what file create needs. */
function formIssues(fields: FormFields, hasFile: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (fields.projectId === undefined) issues.push(missing('project_id'));
  else if (fields.projectId.length === 0) {
    issues.push({
      loc: ['body', 'project_id'],
      msg: 'String should have at least 1 character',
      type: 'string_too_short',
    });
  }
  if (fields.fileAsText && !hasFile) {
    issues.push({
      loc: ['body', 'file'],
      msg: "Value error, Expected UploadFile, received: <class 'str'>",
      type: 'value_error',
    });
  } else if (!hasFile) issues.push(missing('file'));
  return issues;
}

/** Reads one text field into `fields`; other names are ignored, as FastAPI ignores them. */
function readField(part: Extract<Multipart, { type: 'field' }>, fields: FormFields, limit: number): void {
  if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge(limit);
  const value = typeof part.value === 'string' ? part.value : String(part.value);
  if (part.fieldname === 'project_id') fields.projectId = value;
  else if (part.fieldname === 'expected_digest') fields.expectedDigest = value;
  else if (part.fieldname === 'file') fields.fileAsText = true;
}

/** Handles one file create request; the first `file` upload part is the content. */
async function createFromForm(req: FastifyRequest, files: FileStore, limit: number): Promise<FileCreateRes> {
  // Not a form at all: FastAPI finds no form fields, so both required fields are missing.
  if (!req.isMultipart()) throw new RequestValidationError([missing('project_id'), missing('file')]);
  // The limit applies to the whole request body, as for JSON; an honest Content-Length
  // lets us refuse before reading. Without one, busboy's fileSize limit still holds.
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(limit);
  const fields: FormFields = { fileAsText: false };
  let staged: StagedFile | undefined;
  try {
    for await (const part of fromClient(req.parts(), limit)) {
      if (part.type === 'field') {
        readField(part, fields, limit);
      } else if (part.fieldname === 'file' && staged === undefined) {
        staged = await stageFile(files, fromClient(part.file, limit));
        // busboy stops at the limit and marks the stream truncated: never store a cut file.
        if (part.file.truncated) throw tooLarge(limit);
      } else {
        // Other uploads are read past and dropped, so the parts after them can be reached.
        for await (const _ of fromClient(part.file, limit));
      }
    }
    const issues = formIssues(fields, staged !== undefined);
    if (issues.length > 0 || staged === undefined) throw new RequestValidationError(issues);
    return await commitFile(staged, fields.projectId!, fields.expectedDigest ?? null);
  } finally {
    // A no-op once committed; otherwise the staged bytes must not outlive the request.
    if (staged !== undefined) await discardFile(staged);
  }
}

export function registerFileRoutes(app: FastifyInstance, store: Store): void {
  const files = store.files;
  const limit = app.initialConfig.bodyLimit ?? 1024 * 1024;
  for (const spec of [r.fileCreate, r.filesCreate]) {
    bindRoute(app, spec, async (_body, _ctx, _input, reply) => createFromForm(reply.request, files, limit));
  }
  for (const spec of [r.fileContent, r.filesContent]) {
    bindRoute(app, spec, async (body, _ctx, _input, reply) => {
      const content = await openFile(files, body);
      reply.header('content-length', content.size_bytes);
      // Byte mode: each 1 MiB chunk exceeds the high-water mark, so the next one is read
      // from the store only after the socket has taken this one.
      return Readable.from(content.chunks, { objectMode: false });
    });
  }
  bindRoute(app, r.filesStats, async (body) => fileStats(files, body.project_id));
  bindRoute(app, r.filesQueryStats, async (body) => fileStats(files, body.project_id));
}
