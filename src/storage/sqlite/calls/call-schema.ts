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
