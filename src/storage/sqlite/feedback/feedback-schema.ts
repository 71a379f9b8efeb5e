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
