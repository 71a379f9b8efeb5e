// Files on ClickHouse: content in chunks of at most 1 MiB, each a row of file_chunks under a
// blob id of the upload (staged: no files row points at it), then one files row publishes
// the blob as (project, digest), so readers see the whole file or none of it. An upload
// holds at most one chunk in memory. Chunks travel as base64 text (JSON inserts carry no raw
// bytes). Two replicas committing the same new digest at once both publish; readers take
// the earliest row, and the other blob's chunks stay unreferenced.
import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { ChunkBuffer } from '../../files/chunk-buffer.js';
import type { FileContent, FileStore, FileUpload } from '../../files/file-store.js';
import { SINGLE_SERVER, deleteStatement, type ChDdlMode } from '../engine/ddl.js';
import { selectRows } from '../engine/client.js';
import { chIdentifier } from '../engine/dialect.js';
import { digestBytes, digestsOf } from '../engine/digest-stats.js';

export const CH_FILE_CHUNK_BYTES = 1024 * 1024;

export function createClickHouseFileStore(
  client: ClickHouseClient,
  database: string,
  chunkBytes = CH_FILE_CHUNK_BYTES,
  mode: ChDdlMode = SINGLE_SERVER,
): FileStore {
  const db = chIdentifier(database);
  const chunksTable = `${db}.file_chunks`;
  const filesTable = `${db}.files`;

  const putChunk = (blobId: string, seq: number, data: Buffer) =>
    client.insert({
      table: chunksTable,
      values: [{ blob_id: blobId, seq, data: data.toString('base64') }],
      format: 'JSONEachRow',
    });
  const dropBlob = (blobId: string) =>
    client.command({
      query: deleteStatement(database, 'file_chunks', mode, 'blob_id = {b:String}'),
      query_params: { b: blobId },
    });

  async function find(projectId: string, digest: string) {
    const rows = await selectRows<{ blob_id: string; size_bytes: string; n_chunks: number }>(
      client,
      `SELECT blob_id, size_bytes, n_chunks FROM ${filesTable} WHERE project_id = {p:String} AND digest = {d:String} ORDER BY created_at LIMIT 1`,
      { p: projectId, d: digest },
    );
    return rows[0] ?? null;
  }

  function beginUpload(): FileUpload {
    const blobId = randomUUID();
    const chunks = new ChunkBuffer(chunkBytes);
    let staged = 0;
    let size = 0;
    let done = false;
    return {
      async write(piece) {
        if (done) throw new Error('write after the upload ended');
        size += piece.length;
        await chunks.append(piece, async (chunk) => {
          await putChunk(blobId, staged++, chunk);
        });
      },
      async commit(projectId, digest) {
        if (done) throw new Error('commit after the upload ended');
        done = true;
        try {
          if ((await find(projectId, digest)) !== null) {
            if (staged > 0) await dropBlob(blobId);
            return { created: false };
          }
          const tail = chunks.tail();
          if (tail.length > 0) await putChunk(blobId, staged++, tail);
          await client.insert({
            table: filesTable,
            values: [
              {
                project_id: projectId,
                digest,
                blob_id: blobId,
                size_bytes: size,
                n_chunks: staged,
                created_at: Date.now() * 1000,
              },
            ],
            format: 'JSONEachRow',
          });
          return { created: true };
        } catch (err) {
          await dropBlob(blobId).catch(() => undefined);
          throw err;
        } finally {
          chunks.release();
        }
      },
      async abort() {
        if (done) return;
        done = true;
        chunks.release();
        if (staged > 0) await dropBlob(blobId);
      },
    };
  }

  async function* chunksOf(blobId: string, n: number): AsyncGenerator<Uint8Array> {
    for (let seq = 0; seq < n; seq++) {
      const rows = await selectRows<{ data: string }>(
        client,
        `SELECT data FROM ${chunksTable} WHERE blob_id = {b:String} AND seq = {s:UInt32} LIMIT 1`,
        { b: blobId, s: seq },
      );
      if (rows.length === 0) throw new Error(`file chunk ${seq} of blob ${blobId} is missing`);
      yield Buffer.from(rows[0]!.data, 'base64');
    }
  }

  return {
    async beginUpload() {
      return beginUpload();
    },
    async open(projectId, digest): Promise<FileContent | null> {
      const f = await find(projectId, digest);
      return f === null ? null : { size_bytes: Number(f.size_bytes), chunks: chunksOf(f.blob_id, Number(f.n_chunks)) };
    },
    totalSize: (projectId) => digestBytes(client, filesTable, projectId),
    digests: (projectId) => digestsOf(client, filesTable, projectId),
  };
}
