// The write procedures of files (run by the writer inside its transaction, see
// sqlite/engine/writer.ts): staging a chunk of an upload under its blob id, publishing a blob as a
// file, discarding a blob. How uploads use them: sqlite/files/file-store.ts.
import type { SqliteDb } from '../engine/database.js';
import { nowMicros } from '../../../time.js';

/** Bytes as better-sqlite3 binds them: a Buffer (a Uint8Array arrives from another thread). */
const asBuffer = (b: Uint8Array): Buffer =>
  Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** An upload's chunks written so far: its blob (null until the first chunk), chunk count, bytes. */
export interface StagedBlob {
  readonly blobId: number | null;
  readonly seq: number;
  readonly size: number;
}

/**
 * Chunks of uploads a crash interrupted belong to no file: dropped when the database opens.
 * Weft is the only process writing files to this database, so none can be in progress then.
 */
export function dropInterruptedUploads(db: SqliteDb): void {
  db.transaction(() => {
    db.prepare('DELETE FROM file_chunks WHERE blob_id IN (SELECT blob_id FROM file_uploads)').run();
    db.prepare('DELETE FROM file_uploads').run();
  }).immediate();
}

export function fileWrites(db: SqliteDb) {
  const allocateBlob = db.prepare('INSERT INTO file_uploads (started_at) VALUES (?)');
  const dropUpload = db.prepare('DELETE FROM file_uploads WHERE blob_id = ?');
  const insertChunk = db.prepare('INSERT INTO file_chunks (blob_id, seq, data) VALUES (?, ?, ?)');
  const dropChunks = db.prepare('DELETE FROM file_chunks WHERE blob_id = ?');
  const findFile = db.prepare('SELECT 1 FROM files WHERE project_id = ? AND digest = ?');
  const insertFile = db.prepare(`INSERT INTO files (project_id, digest, blob_id, size_bytes, n_chunks, created_at)
    VALUES (?, ?, ?, ?, ?, ?)`);

  const newBlob = (): number => Number(allocateBlob.run(nowMicros()).lastInsertRowid);
  const discard = (blobId: number) => {
    dropChunks.run(blobId);
    dropUpload.run(blobId);
  };

  return {
    /** Stores chunk `seq` of an upload (allocating its blob when `blobId` is null); returns the blob id. */
    'files.stage'(blobId: number | null, seq: number, data: Uint8Array): number {
      const id = blobId ?? newBlob();
      insertChunk.run(id, seq, asBuffer(data));
      return id;
    },
    /** Publishes the staged chunks plus `tail` as the file, unless the project has it already (then discards them). */
    'files.publish'(projectId: string, digest: string, staged: StagedBlob, tail: Uint8Array): boolean {
      if (findFile.get(projectId, digest) !== undefined) {
        if (staged.blobId !== null) discard(staged.blobId);
        return false;
      }
      const blobId = staged.blobId ?? newBlob();
      let nChunks = staged.seq;
      if (tail.length > 0) insertChunk.run(blobId, nChunks++, asBuffer(tail));
      insertFile.run(projectId, digest, blobId, staged.size, nChunks, nowMicros());
      dropUpload.run(blobId);
      return true;
    },
    'files.discard'(blobId: number): void {
      discard(blobId);
    },
  };
}
