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
