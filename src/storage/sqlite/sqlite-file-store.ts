// Files on SQLite: content in chunks of at most 1 MiB inside the database file.
// An upload keeps at most one chunk in memory. Each chunk is written to file_chunks as
// soon as it is full, under a blob id allocated for the upload (staged: no `files` row
// points at it yet); the commit transaction writes the last, partial chunk and the
// `files` row, so readers see the whole file or none of it. A file smaller than one chunk - the SDK's usual image, audio
// or op source - is never staged: when its digest is already stored the re-upload
// writes nothing at all. Each staged chunk is its own short transaction, so a large
// upload never holds the write lock across network waits.
import type { FileContent, FileStore, FileUpload } from '../file-store.js';
import type { SqliteDb } from './sqlite-database.js';
import { nowMicros } from '../../time.js';

/** Largest chunk stored in one row. */
export const FILE_CHUNK_BYTES = 1024 * 1024;

export function createSqliteFileStore(db: SqliteDb, chunkBytes = FILE_CHUNK_BYTES): FileStore {
  const allocateBlob = db.prepare('INSERT INTO file_uploads (started_at) VALUES (?)');
  const dropUpload = db.prepare('DELETE FROM file_uploads WHERE blob_id = ?');
  const insertChunk = db.prepare('INSERT INTO file_chunks (blob_id, seq, data) VALUES (?, ?, ?)');
  const dropChunks = db.prepare('DELETE FROM file_chunks WHERE blob_id = ?');
  const findFile = db.prepare('SELECT blob_id, size_bytes, n_chunks FROM files WHERE project_id = ? AND digest = ?');
  const insertFile = db.prepare(`INSERT INTO files (project_id, digest, blob_id, size_bytes, n_chunks, created_at)
    VALUES (?, ?, ?, ?, ?, ?)`);
  const readChunk = db.prepare('SELECT data FROM file_chunks WHERE blob_id = ? AND seq = ?').pluck();
  const sumSizes = db.prepare('SELECT COALESCE(SUM(size_bytes), 0) FROM files WHERE project_id = ?').pluck();

  // Chunks of uploads a crash interrupted belong to no file: drop them. Weft is the only
  // process writing this database file, so no upload can be in progress while it opens.
  db.transaction(() => {
    db.prepare('DELETE FROM file_chunks WHERE blob_id IN (SELECT blob_id FROM file_uploads)').run();
    db.prepare('DELETE FROM file_uploads').run();
  }).immediate();

  const newBlob = (): number => Number(allocateBlob.run(nowMicros()).lastInsertRowid);

  const discard = db.transaction((blobId: number) => {
    dropChunks.run(blobId);
    dropUpload.run(blobId);
  });

  /** Publishes a blob (staged chunks + the tail chunk) as a file, unless the project has it already. */
  const publish = db.transaction(
    (projectId: string, digest: string, staged: { blobId: number | null; seq: number; size: number }, tail: Buffer) => {
      if (findFile.get(projectId, digest) !== undefined) {
        if (staged.blobId !== null) discard(staged.blobId);
        return false;
      }
      const blobId = staged.blobId ?? newBlob();
      let nChunks = staged.seq;
      if (tail.length > 0) insertChunk.run(blobId, nChunks++, tail);
      insertFile.run(projectId, digest, blobId, staged.size, nChunks, nowMicros());
      dropUpload.run(blobId);
      return true;
    },
  );

  function beginUpload(): FileUpload {
    // One buffer per upload, grown by doubling up to a chunk and then reused for every
    // chunk (better-sqlite3 copies bound blobs): a large upload makes no garbage of its own.
    let buf = Buffer.alloc(0);
    let filled = 0;
    const staged = { blobId: null as number | null, seq: 0, size: 0 };
    let done = false;

    const reserve = (bytes: number) => {
      if (buf.length >= bytes) return;
      let size = Math.max(buf.length, 16 * 1024);
      while (size < bytes) size *= 2;
      const grown = Buffer.allocUnsafe(Math.min(size, chunkBytes));
      buf.copy(grown, 0, 0, filled);
      buf = grown;
    };

    return {
      async write(piece) {
        if (done) throw new Error('write after the upload ended');
        staged.size += piece.length;
        let at = 0;
        while (at < piece.length) {
          const take = Math.min(piece.length - at, chunkBytes - filled);
          reserve(filled + take);
          buf.set(piece.subarray(at, at + take), filled);
          filled += take;
          at += take;
          if (filled === chunkBytes) {
            staged.blobId ??= newBlob();
            insertChunk.run(staged.blobId, staged.seq++, buf);
            filled = 0;
          }
        }
      },
      async commit(projectId, digest) {
        if (done) throw new Error('commit after the upload ended');
        done = true;
        try {
          return { created: publish.immediate(projectId, digest, staged, buf.subarray(0, filled)) };
        } catch (err) {
          if (staged.blobId !== null) discard.immediate(staged.blobId);
          throw err;
        } finally {
          buf = Buffer.alloc(0);
        }
      },
      async abort() {
        if (done) return;
        done = true;
        buf = Buffer.alloc(0);
        if (staged.blobId !== null) discard.immediate(staged.blobId);
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
      const row = findFile.get(projectId, digest) as { blob_id: number; size_bytes: number; n_chunks: number } | undefined;
      if (row === undefined) return null;
      return { size_bytes: row.size_bytes, chunks: chunksOf(row.blob_id, row.n_chunks) };
    },
    async totalSize(projectId) {
      return sumSizes.get(projectId) as number;
    },
  };
}
