// Migration 2: tables (datasets' rows), files and token prices.
import type { Migration } from '../database.js';

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

// SQLite tables and indexes for LLM prices (part of migration 2).
// llm_token_prices: one row per price, as Weave's table of that name (weave-api.md §3.8).
//   'project' rows come from /cost/create. Until migration 7, 'default' rows mirrored a
//   shipped price list; default prices now come from a catalogue package, not the database.
//   Times are integer microseconds since the epoch (UTC); prices are per token.
//   Rowid order is insertion order, the order /cost/query returns without sort_by.
export const COSTS_SCHEMA_V2 = `
CREATE TABLE llm_token_prices (
  id                         TEXT NOT NULL PRIMARY KEY,
  pricing_level              TEXT NOT NULL,   -- 'default' | 'project'
  pricing_level_id           TEXT NOT NULL,   -- 'default' | project_id
  provider_id                TEXT NOT NULL,
  llm_id                     TEXT NOT NULL,
  effective_date             INTEGER NOT NULL,
  prompt_token_cost          REAL NOT NULL,
  completion_token_cost      REAL NOT NULL,
  prompt_token_cost_unit     TEXT NOT NULL,
  completion_token_cost_unit TEXT NOT NULL,
  created_by                 TEXT NOT NULL,
  created_at                 INTEGER NOT NULL
);
CREATE INDEX llm_token_prices_by_llm ON llm_token_prices (llm_id, pricing_level, pricing_level_id, effective_date);
CREATE INDEX llm_token_prices_by_level ON llm_token_prices (pricing_level, pricing_level_id);
`;

/** Migration 7: default prices are no longer stored (see default-llm-prices.ts). */

export const MIGRATION_2: Migration = {
  version: 2,
  sql: [TABLES_SCHEMA_V2, FILES_SCHEMA_V2, COSTS_SCHEMA_V2].join('\n'),
};
