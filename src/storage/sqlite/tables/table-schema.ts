// SQLite tables and indexes for tables (part of migration 2).
//
// table_rows: one row per (project, row digest); val is the canonical JSON text that was
//   hashed into the digest, size_bytes its length (ASCII, so bytes). `id` is an explicit
//   INTEGER PRIMARY KEY so that VACUUM never renumbers it: table_entries point at it.
// tables: one row per (project, table digest); row_count kept for the stats endpoints.
// table_entries: the ordered row list of each table, one entry per position, pointing at
//   table_rows by integer id.
//
// Why one entry per position rather than a packed list (a JSON array of row digests in
// one column, as Weave's own SQLite server does). Measured on 100,000 rows of ~200 bytes:
// - create: ~0.5 s either way, dominated by the row inserts;
// - read in table order: entries come straight off the primary key, so a stream needs no
//   sorter and constant memory, and an offset is a position bound (page at 99,000: ~0 ms
//   vs ~190 ms, because a packed list is re-parsed by json_each and re-sorted per read);
// - sort by a JSON path, top 50: ~50 ms (join on integer ids) vs ~140 ms;
// - size of one more 100k-row version of a dataset: ~1.5 MB of entries (integer row ids)
//   vs ~4.6 MB packed or ~6 MB for entries holding text digests; writing it: ~0.15 s vs
//   ~0.04 s packed -- the one thing a packed list does better, and a rare write.
// No foreign-key clauses: entries are only ever written by a join that proves the row
// exists, and nothing is deleted.
export const TABLES_SCHEMA_V2 = `
CREATE TABLE table_rows (
  id         INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  digest     TEXT NOT NULL,
  val        TEXT NOT NULL,              -- canonical JSON text
  size_bytes INTEGER NOT NULL
);
CREATE UNIQUE INDEX table_rows_digest ON table_rows (project_id, digest);

CREATE TABLE tables (
  id         INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  digest     TEXT NOT NULL,              -- lowercase hex SHA-256 of the row digests
  row_count  INTEGER NOT NULL,
  created_at INTEGER NOT NULL            -- microseconds since the epoch (UTC)
);
CREATE UNIQUE INDEX tables_digest ON tables (project_id, digest);

CREATE TABLE table_entries (
  table_id INTEGER NOT NULL,             -- tables.id
  position INTEGER NOT NULL,             -- 0-based
  row_id   INTEGER NOT NULL,             -- table_rows.id
  PRIMARY KEY (table_id, position)
) WITHOUT ROWID;
`;
