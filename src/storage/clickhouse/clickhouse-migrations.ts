// The ordered migrations of the ClickHouse engine, recorded in weft_migrations (one row per
// applied version). Never edit a released migration: add one. Statements run one at a time
// (ClickHouse takes one per request); `{db}` stands for Weft's database, an identifier.
import type { ClickHouseClient } from '@clickhouse/client';
import { chIdentifier } from './clickhouse-dialect.js';
import { selectRows } from './clickhouse-client.js';

export interface ChMigration {
  readonly version: number;
  readonly statements: readonly string[];
}

export const CLICKHOUSE_MIGRATIONS: readonly ChMigration[] = [
  {
    version: 1,
    statements: [
      // LLM prices set per project (/cost/create); default prices come from a catalogue.
      // Times are integer microseconds (UTC), as the plan's datetime literals; prices per token.
      // seq orders rows as they were inserted (/cost/query without sort_by).
      `CREATE TABLE IF NOT EXISTS {db}.llm_token_prices (
        id String, pricing_level LowCardinality(String), pricing_level_id String, provider_id String, llm_id String,
        effective_date Int64, prompt_token_cost Float64, completion_token_cost Float64,
        prompt_token_cost_unit LowCardinality(String), completion_token_cost_unit LowCardinality(String),
        created_by String, created_at Int64, seq UInt64
      ) ENGINE = MergeTree ORDER BY (pricing_level_id, llm_id, id)`,
      // One row per change of a project's settings; the newest (by updated_at) wins.
      // Feedback: one row per feedback; JSON columns hold JSON text (as in SQLite); times in
      // microseconds; seq orders rows as inserted and tells a re-sent row from the one it replaces.
      `CREATE TABLE IF NOT EXISTS {db}.feedback (
        project_id String, id String, weave_ref String, wb_user_id String, creator Nullable(String), created_at Int64,
        feedback_type String, payload String, annotation_ref Nullable(String), runnable_ref Nullable(String),
        call_ref Nullable(String), trigger_ref Nullable(String), queue_id Nullable(String),
        scorer_tags String, scorer_tag_reasons String, scorer_tag_confidences String, scorer_ratings String,
        scorer_rating_reasons String, scorer_rating_confidences String,
        span_agent_name String, span_agent_version String, span_status_code String,
        scorer_trace_id String, span_trace_id String, span_conversation_id String, seq UInt64,
        INDEX by_ref weave_ref TYPE bloom_filter GRANULARITY 4
      ) ENGINE = MergeTree ORDER BY (project_id, id)`,
      // Files: content in chunks (base64 text: a String column fed by JSON inserts) under a blob
      // id; a files row publishes a blob as (project, digest). The earliest row of a digest wins.
      `CREATE TABLE IF NOT EXISTS {db}.file_chunks (blob_id String, seq UInt32, data String) ENGINE = MergeTree ORDER BY (blob_id, seq)`,
      `CREATE TABLE IF NOT EXISTS {db}.files (
        project_id String, digest String, blob_id String, size_bytes UInt64, n_chunks UInt32, created_at Int64
      ) ENGINE = MergeTree ORDER BY (project_id, digest, created_at)`,
      // Tables: rows content-addressed per project (the same digest always holds the same
      // text, so duplicates written by racing replicas are equal and read once); a table's
      // entries (position -> row digest), then its tables row, written last, publishes it.
      `CREATE TABLE IF NOT EXISTS {db}.table_rows (project_id String, digest String, val String, size_bytes UInt64) ENGINE = MergeTree ORDER BY (project_id, digest)`,
      `CREATE TABLE IF NOT EXISTS {db}.table_entries (project_id String, table_digest String, position UInt64, row_digest String) ENGINE = MergeTree ORDER BY (project_id, table_digest, position)`,
      `CREATE TABLE IF NOT EXISTS {db}.tables (project_id String, digest String, row_count UInt64, created_at Int64) ENGINE = MergeTree ORDER BY (project_id, digest)`,
      // Users, roles and API keys (hashes only), append-only: a role row per change (the
      // newest per user, entity and project wins), a revocation row per revoked key.
      `CREATE TABLE IF NOT EXISTS {db}.users (id String, name String, created_at String) ENGINE = MergeTree ORDER BY (name, id)`,
      `CREATE TABLE IF NOT EXISTS {db}.user_roles (user_id String, entity String, project String, role LowCardinality(String), seq UInt64) ENGINE = MergeTree ORDER BY (user_id, entity, project, seq)`,
      `CREATE TABLE IF NOT EXISTS {db}.api_keys (id String, user_id String, key_hash String, prefix String, created_at String) ENGINE = MergeTree ORDER BY (key_hash, id)`,
      `CREATE TABLE IF NOT EXISTS {db}.api_key_revocations (id String, revoked_at String) ENGINE = MergeTree ORDER BY id`,
      // Objects: a version's value once (object_values), its state as rows (object_versions:
      // the newest row per version wins, so a delete or a resurrection is a new row), the
      // latest version per object as pointer rows (digest '' = none), tags and aliases as rows
      // (the newest per tag / alias wins; present = 0 or digest '' = removed).
      `CREATE TABLE IF NOT EXISTS {db}.object_values (project_id String, object_id String, digest String, val String, size_bytes UInt64) ENGINE = MergeTree ORDER BY (project_id, object_id, digest)`,
      `CREATE TABLE IF NOT EXISTS {db}.object_versions (
        project_id String, object_id String, digest String, version_index UInt32, kind LowCardinality(String),
        base_object_class Nullable(String), leaf_object_class Nullable(String), wb_user_id Nullable(String),
        created_at Int64, deleted_at Nullable(Int64), seq UInt64
      ) ENGINE = MergeTree ORDER BY (project_id, object_id, digest, seq)`,
      `CREATE TABLE IF NOT EXISTS {db}.object_latest (project_id String, object_id String, digest String, seq UInt64) ENGINE = MergeTree ORDER BY (project_id, object_id, seq)`,
      `CREATE TABLE IF NOT EXISTS {db}.object_tags (project_id String, object_id String, digest String, tag String, present UInt8, seq UInt64) ENGINE = MergeTree ORDER BY (project_id, object_id, digest, tag, seq)`,
      `CREATE TABLE IF NOT EXISTS {db}.object_aliases (project_id String, object_id String, alias String, digest String, seq UInt64) ENGINE = MergeTree ORDER BY (project_id, object_id, alias, seq)`,
      `CREATE TABLE IF NOT EXISTS {db}.project_settings (
        project_id String, retention_days Nullable(Int32), updated_at Int64, updated_by Nullable(String)
      ) ENGINE = MergeTree ORDER BY (project_id, updated_at)`,
    ],
  },
];

/** Creates the database if needed and applies the migrations it has not recorded yet. */
export async function migrateClickHouse(client: ClickHouseClient, database: string, migrations: readonly ChMigration[] = CLICKHOUSE_MIGRATIONS): Promise<void> {
  const db = chIdentifier(database);
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await client.command({ query: `CREATE TABLE IF NOT EXISTS ${db}.weft_migrations (version UInt32, applied_at DateTime64(6, 'UTC') DEFAULT now64(6)) ENGINE = MergeTree ORDER BY version` });
  const done = new Set((await selectRows<{ version: number }>(client, `SELECT version FROM ${db}.weft_migrations`)).map((r) => Number(r.version)));
  const newest = Math.max(0, ...done);
  const known = Math.max(0, ...migrations.map((m) => m.version));
  if (newest > known) throw new Error(`the ClickHouse database ${database} was written by a newer Weft (schema ${newest}; this Weft knows ${known}); upgrade Weft`);
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    for (const s of m.statements) await client.command({ query: s.replaceAll('{db}', db) });
    await client.insert({ table: `${db}.weft_migrations`, values: [{ version: m.version }], format: 'JSONEachRow' });
  }
}
