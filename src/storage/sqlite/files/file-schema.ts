// SQLite tables and indexes for files (part of migration 2).
// The bytes live inside the one database file ("one process, one file"), cut into chunks
// of at most 1 MiB so that neither writing nor reading needs a file in memory whole.
// files: one row per (project, digest), pointing at the chunks of its blob; a file is
//   visible to readers exactly when this row exists (written in the commit transaction).
// file_chunks: the content of a blob, in seq order (0, 1, ...); every chunk but the last is
//   full; an empty file has no chunks.
// file_uploads: blobs being staged by uploads in progress. Its AUTOINCREMENT key allocates
//   every blob id, so an id is never reused even after its row is deleted on commit. Rows
//   left here by a crash mark orphan chunks, which the store deletes when it opens.
// Times are integer microseconds since the epoch (UTC).
export const FILES_SCHEMA_V2 = `
CREATE TABLE files (
  project_id TEXT NOT NULL,
  digest     TEXT NOT NULL,
  blob_id    INTEGER NOT NULL,
  size_bytes INTEGER NOT NULL,
  n_chunks   INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (project_id, digest)
) WITHOUT ROWID;

-- A rowid table: WITHOUT ROWID suits small rows, and these rows are up to 1 MiB.
CREATE TABLE file_chunks (
  blob_id INTEGER NOT NULL,
  seq     INTEGER NOT NULL,
  data    BLOB NOT NULL,
  PRIMARY KEY (blob_id, seq)
);

CREATE TABLE file_uploads (
  blob_id    INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at INTEGER NOT NULL
);
`;
