// Files on SQLite: content in chunks of at most 1 MiB inside the database file.
// An upload keeps at most one chunk in memory. Each chunk is written to file_chunks as
// soon as it is full, under a blob id allocated for the upload (staged: no `files` row
// points at it yet); the publishing write adds the last, partial chunk and the `files` row,
// so readers see the whole file or none of it. A file smaller than one chunk - the SDK's
// usual image, audio or op source - is never staged: when its digest is already stored the
// re-upload writes nothing at all. Each staged chunk is its own short write (through the
// writer, sqlite/files/file-writes.ts), so a large upload never holds the write lock across
// network waits, and the next chunk is filled only once the previous one is stored.
import { ChunkBuffer } from '../../files/chunk-buffer.js';
import type { FileContent, FileStore, FileUpload } from '../../files/file-store.js';
import type { SqliteDb } from '../engine/database.js';
import type { StagedBlob } from './file-writes.js';
import type { SqliteWriter } from '../engine/writer.js';

/** Largest chunk stored in one row. */
export const FILE_CHUNK_BYTES = 1024 * 1024;

export function createSqliteFileStore(db: SqliteDb, writer: SqliteWriter, chunkBytes = FILE_CHUNK_BYTES): FileStore {
  const findFile = db.prepare('SELECT blob_id, size_bytes, n_chunks FROM files WHERE project_id = ? AND digest = ?');
  const readChunk = db.prepare('SELECT data FROM file_chunks WHERE blob_id = ? AND seq = ?').pluck();
  const sumSizes = db.prepare('SELECT COALESCE(SUM(size_bytes), 0) FROM files WHERE project_id = ?').pluck();
  const listDigests = db.prepare('SELECT digest FROM files WHERE project_id = ?').pluck();

  function beginUpload(): FileUpload {
    const chunks = new ChunkBuffer(chunkBytes);
    let staged: StagedBlob = { blobId: null, seq: 0, size: 0 };
    let done = false;

    return {
      async write(piece) {
        if (done) throw new Error('write after the upload ended');
        await chunks.append(piece, async (chunk) => {
          // The writer copies the chunk when it sends it: refilling waits until it is stored.
          const blobId = await writer.run('files.stage', [staged.blobId, staged.seq, chunk]);
          staged = { blobId, seq: staged.seq + 1, size: staged.size + chunkBytes };
        });
      },
      async commit(projectId, digest) {
        if (done) throw new Error('commit after the upload ended');
        done = true;
        try {
          const tail = chunks.tail();
          return {
            created: await writer.run('files.publish', [
              projectId,
              digest,
              { ...staged, size: staged.size + tail.length },
              tail,
            ]),
          };
        } catch (err) {
          if (staged.blobId !== null) await writer.run('files.discard', [staged.blobId]).catch(() => undefined);
          throw err;
        } finally {
          chunks.release();
        }
      },
      async abort() {
        if (done) return;
        done = true;
        chunks.release();
        if (staged.blobId !== null) await writer.run('files.discard', [staged.blobId]);
      },
    };
  }

  /** Yields the blob's chunks one query at a time: no statement stays open between pulls. */
  async function* chunksOf(blobId: number, nChunks: number): AsyncGenerator<Uint8Array> {
    for (let seq = 0; seq < nChunks; seq++) {
      const data = readChunk.get(blobId, seq) as Buffer | undefined;
      if (data === undefined) throw new Error(`file chunk ${seq} of blob ${blobId} is missing`);
      yield data;
    }
  }

  return {
    async beginUpload() {
      return beginUpload();
    },
    async open(projectId, digest): Promise<FileContent | null> {
      const row = findFile.get(projectId, digest) as
        | { blob_id: number; size_bytes: number; n_chunks: number }
        | undefined;
      if (row === undefined) return null;
      return { size_bytes: row.size_bytes, chunks: chunksOf(row.blob_id, row.n_chunks) };
    },
    async totalSize(projectId) {
      return sumSizes.get(projectId) as number;
    },
    async digests(projectId) {
      return listDigests.all(projectId) as string[];
    },
  };
}
