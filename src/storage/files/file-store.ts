// What every engine must offer for files (weave-api.md §1.19-1.20, §3.9).
// Files are content-addressed per project: stored once per (project_id, digest), never
// changed afterwards. Content travels as ordered pieces of bytes in both directions, so
// no file ever has to be held in memory whole, and nothing here assumes a local disk:
// SQLite keeps chunks inside its one database file, ClickHouse would keep them as rows.

/**
 * One upload in progress. Its project and digest become known only at its end: form
 * fields may follow the file part, and the digest needs every byte. Engines stage what
 * is written where no reader can see it; `commit` publishes it atomically.
 */
export interface FileUpload {
  /**
   * Appends the next piece of content, in order. Pieces may have any size (the engine
   * re-chunks them); the caller may reuse a piece once the promise resolves. Memory the
   * engine holds per upload stays bounded (about one chunk) however many bytes arrive.
   */
  write(piece: Uint8Array): Promise<void>;
  /**
   * Atomically publishes everything written as the file (projectId, digest). The caller
   * vouches that `digest` is the digest of exactly those bytes. When the project already
   * holds that digest, the staged bytes are discarded and nothing new is stored
   * (`created: false`). Readers see either no file or all of it. Ends the upload.
   */
  commit(projectId: string, digest: string): Promise<{ readonly created: boolean }>;
  /**
   * Discards everything written and ends the upload. Safe at any time, more than once,
   * and after commit (then it does nothing). Callers abort on every failure path.
   */
  abort(): Promise<void>;
}

/** A stored file, opened for reading. */
export interface FileContent {
  readonly size_bytes: number;
  /**
   * The bytes in order, fetched lazily one chunk at a time as the consumer pulls.
   * Stopping early (break / return) releases whatever the engine holds.
   */
  readonly chunks: AsyncIterable<Uint8Array>;
}

export interface FileStore {
  /** Starts an upload (see FileUpload). */
  beginUpload(): Promise<FileUpload>;
  /** Digests of every file of the project, in no particular order (weft copy). */
  digests(projectId: string): Promise<string[]>;
  /** The file stored under (projectId, digest), or null when there is none. */
  open(projectId: string, digest: string): Promise<FileContent | null>;
  /** Sum of the sizes of the project's files, in bytes (0 for an unknown project). */
  totalSize(projectId: string): Promise<number>;
}
