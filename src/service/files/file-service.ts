// The files API over a FileStore (weave-api.md §1.19-1.20, §2, §3.9): content is hashed
// and handed to the store piece by piece as it arrives, so a file never sits in memory
// whole, and it becomes visible only once its digest is known and checked.
import type { FileContentReq, FileCreateRes, FilesStatsRes } from '../../api/files.js';
import { DigestMismatchError, NotFoundError } from '../../api/errors.js';
import type { FileContent, FileStore, FileUpload } from '../../storage/files/file-store.js';
import { createBytesDigester } from './file-digest.js';

/** Content that has been read whole and staged, but is not visible yet. */
export interface StagedFile {
  readonly digest: string;
  readonly size_bytes: number;
  /** Still open: the caller must end it with commitFile or discardFile. */
  readonly upload: FileUpload;
}

/**
 * Reads `content` to its end, hashing it and staging it in the store as it goes.
 * On any failure (including the source erroring, e.g. a dropped connection) the staged
 * bytes are discarded and the error rethrown.
 */
export async function stageFile(files: FileStore, content: AsyncIterable<Uint8Array>): Promise<StagedFile> {
  const upload = await files.beginUpload();
  const digester = createBytesDigester();
  let size = 0;
  try {
    for await (const piece of content) {
      digester.update(piece);
      size += piece.length;
      await upload.write(piece);
    }
  } catch (err) {
    await upload.abort();
    throw err;
  }
  return { digest: digester.digest(), size_bytes: size, upload };
}

/** Drops a staged file (the request failed after its content was read). */
export async function discardFile(staged: StagedFile): Promise<void> {
  await staged.upload.abort();
}

/**
 * Publishes a staged file in the project; identical content already stored there is
 * not stored again. A client's expected_digest that differs from the content's is a 409.
 */
export async function commitFile(
  staged: StagedFile,
  projectId: string,
  expectedDigest: string | null,
): Promise<FileCreateRes> {
  if (expectedDigest !== null && expectedDigest !== staged.digest) {
    await staged.upload.abort();
    throw new DigestMismatchError(`Digest mismatch for file: expected ${expectedDigest}, computed ${staged.digest}`);
  }
  await staged.upload.commit(projectId, staged.digest);
  return { digest: staged.digest };
}

/** The stored file, opened for streaming; 404 when the project has no such file. */
export async function openFile(files: FileStore, req: FileContentReq): Promise<FileContent> {
  const content = await files.open(req.project_id, req.digest);
  if (content === null) throw new NotFoundError(`File ${req.digest} not found`);
  return content;
}

export async function fileStats(files: FileStore, projectId: string): Promise<FilesStatsRes> {
  return { total_size_bytes: await files.totalSize(projectId) };
}
