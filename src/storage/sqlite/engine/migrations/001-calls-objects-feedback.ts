// Migration 1: calls, object versions and feedback: Weft's first schema.
import type { Migration } from '../database.js';

// SQLite tables and indexes for calls (part of migration 1).
// One row per call: the start and end parts are upserted into the same row, so a
// call is readable as soon as both have arrived, in whichever order. Times are integer
// microseconds since the epoch (UTC). JSON columns hold JSON text.
export const CALLS_SCHEMA_V1 = `
CREATE TABLE calls (
  project_id      TEXT NOT NULL,
  id              TEXT NOT NULL,
  trace_id        TEXT,
  parent_id       TEXT,
  thread_id       TEXT,
  turn_id         TEXT,
  op_name         TEXT,
  display_name    TEXT,
  started_at      INTEGER,           -- NULL until the start part arrives: such calls are invisible
  ended_at        INTEGER,
  attributes      TEXT,              -- JSON object
  inputs          TEXT,              -- JSON object
  output          TEXT,              -- JSON value
  exception       TEXT,
  summary         TEXT,              -- JSON object, as the client sent it
  input_refs      TEXT NOT NULL DEFAULT '[]',   -- JSON array of ref strings found in inputs
  output_refs     TEXT NOT NULL DEFAULT '[]',   -- JSON array of ref strings found in output
  wb_user_id      TEXT,
  wb_run_id       TEXT,
  wb_run_step     INTEGER,
  wb_run_step_end INTEGER,
  deleted_at      INTEGER,
  expire_at       INTEGER,
  start_bytes     INTEGER NOT NULL DEFAULT 0,   -- stored size of the start part's JSON
  end_bytes       INTEGER NOT NULL DEFAULT 0    -- stored size of the end part's JSON
);
CREATE UNIQUE INDEX calls_pk ON calls (project_id, id);
-- Each index ends in the default order (started_at, then id as the tiebreak), so a filter on
-- its leading columns streams rows already sorted, first row at once, without a temp b-tree.
CREATE INDEX calls_started ON calls (project_id, started_at, id);
CREATE INDEX calls_trace ON calls (project_id, trace_id, started_at, id);
CREATE INDEX calls_parent ON calls (project_id, parent_id, started_at, id);
CREATE INDEX calls_op ON calls (project_id, op_name, started_at, id);
`;

// SQLite tables and indexes for objects (part of migration 1).
// object_versions: one row per (project, object id, digest). Deleting a version only sets
//   deleted_at, so version_index stays a count over all versions ever stored. is_latest is
//   kept explicitly (1 on at most one live version per object) because an identical
//   re-create makes an older version the latest again. val is the canonical JSON text that
//   was hashed into the digest; size_bytes is its length.
// object_tags: set of tags per version. object_aliases: alias name -> digest per object
//   ("latest" is never stored: it is derived from is_latest).
// Times are integer microseconds since the epoch (UTC).
export const OBJECTS_SCHEMA_V1 = `
CREATE TABLE object_versions (
  project_id        TEXT NOT NULL,
  object_id         TEXT NOT NULL,
  digest            TEXT NOT NULL,
  version_index     INTEGER NOT NULL,
  is_latest         INTEGER NOT NULL DEFAULT 0,
  kind              TEXT NOT NULL,         -- 'op' | 'object'
  base_object_class TEXT,
  leaf_object_class TEXT,
  val               TEXT NOT NULL,         -- canonical JSON text
  size_bytes        INTEGER NOT NULL,
  wb_user_id        TEXT,
  created_at        INTEGER NOT NULL,
  deleted_at        INTEGER
);
CREATE UNIQUE INDEX object_versions_pk ON object_versions (project_id, object_id, digest);
CREATE INDEX object_versions_index ON object_versions (project_id, object_id, version_index);
CREATE INDEX object_versions_created ON object_versions (project_id, created_at, version_index);
-- latest_only listings read only the live latest versions, in the default order.
CREATE INDEX object_versions_latest ON object_versions (project_id, created_at, version_index) WHERE is_latest = 1 AND deleted_at IS NULL;

CREATE TABLE object_tags (
  project_id TEXT NOT NULL,
  object_id  TEXT NOT NULL,
  digest     TEXT NOT NULL,
  tag        TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (project_id, object_id, digest, tag)
) WITHOUT ROWID;
CREATE INDEX object_tags_by_tag ON object_tags (project_id, tag);

CREATE TABLE object_aliases (
  project_id TEXT NOT NULL,
  object_id  TEXT NOT NULL,
  alias      TEXT NOT NULL,
  digest     TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (project_id, object_id, alias)
) WITHOUT ROWID;
CREATE INDEX object_aliases_by_digest ON object_aliases (project_id, object_id, digest);
CREATE INDEX object_aliases_by_alias ON object_aliases (project_id, alias);
`;

// SQLite tables and indexes for feedback (part of migration 1).
// One row per feedback; rows are never updated in place except by an idempotent
// re-insert of the same (project_id, id). Times are integer microseconds (UTC).
// JSON columns hold JSON text; scorer_* default to the empty array / object, as
// ClickHouse's Array and Map columns do. The calls engine joins on
// (project_id, weave_ref) for include_feedback and feedback.* filters.
export const FEEDBACK_SCHEMA_V1 = `
CREATE TABLE feedback (
  project_id                TEXT NOT NULL,
  id                        TEXT NOT NULL,
  weave_ref                 TEXT NOT NULL,
  wb_user_id                TEXT NOT NULL,
  creator                   TEXT,
  created_at                INTEGER NOT NULL,
  feedback_type             TEXT NOT NULL,
  payload                   TEXT NOT NULL DEFAULT '{}',   -- JSON object, as processed
  annotation_ref            TEXT,
  runnable_ref              TEXT,
  call_ref                  TEXT,
  trigger_ref               TEXT,
  queue_id                  TEXT,
  scorer_tags               TEXT NOT NULL DEFAULT '[]',   -- JSON array of strings
  scorer_tag_reasons        TEXT NOT NULL DEFAULT '{}',   -- JSON object string -> string
  scorer_tag_confidences    TEXT NOT NULL DEFAULT '{}',   -- JSON object string -> number
  scorer_ratings            TEXT NOT NULL DEFAULT '{}',   -- JSON object string -> number
  scorer_rating_reasons     TEXT NOT NULL DEFAULT '{}',   -- JSON object string -> string
  scorer_rating_confidences TEXT NOT NULL DEFAULT '{}',   -- JSON object string -> number
  span_agent_name           TEXT NOT NULL DEFAULT '',
  span_agent_version        TEXT NOT NULL DEFAULT '',
  span_status_code          TEXT NOT NULL DEFAULT 'UNSET'
);
CREATE UNIQUE INDEX feedback_pk ON feedback (project_id, id);
CREATE INDEX feedback_weave_ref ON feedback (project_id, weave_ref);
`;

export const MIGRATION_1: Migration = {
  version: 1,
  sql: [CALLS_SCHEMA_V1, OBJECTS_SCHEMA_V1, FEEDBACK_SCHEMA_V1].join('\n'),
};
