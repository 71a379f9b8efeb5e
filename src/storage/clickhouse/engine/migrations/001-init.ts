// Migration 1: every table of the engine, as first released.
import type { ChMigration } from './index.js';

export const MIGRATION_1: ChMigration = {
  version: 1,
  tables: [
    // Calls: one row per call holding everything known of it when the row was written (a
    // writer merges the parts it has with the rows already stored); the newest row (seq) of a
    // call wins, at read time (LIMIT 1 BY id) and in background merges. has_start / has_end
    // say which parts a row holds (a row without a start is invisible); named marks a display
    // name set by /call/update. Times are microseconds; refs are JSON arrays of ref strings.
    // Sorted by start time, so the newest calls of a project are read first without a sort;
    // the skip indexes serve point reads, traces, children and threads.
    {
      name: 'calls',
      columns: `project_id String, id String, trace_id String, parent_id Nullable(String),
        thread_id Nullable(String), turn_id Nullable(String), op_name String, display_name Nullable(String),
        started_at Int64, ended_at Nullable(Int64), attributes String, inputs String, output Nullable(String),
        exception Nullable(String), summary Nullable(String), input_refs String, output_refs String,
        wb_user_id Nullable(String), wb_run_id Nullable(String), wb_run_step Nullable(Int64),
        wb_run_step_end Nullable(Int64), deleted_at Nullable(Int64), expire_at Nullable(Int64),
        start_bytes UInt64, end_bytes UInt64, has_start UInt8, has_end UInt8, named UInt8, seq UInt64,
        INDEX by_id id TYPE bloom_filter GRANULARITY 1, INDEX by_trace trace_id TYPE bloom_filter GRANULARITY 1,
        INDEX by_parent parent_id TYPE bloom_filter GRANULARITY 1, INDEX by_thread thread_id TYPE bloom_filter GRANULARITY 1,
        INDEX by_expiry expire_at TYPE minmax GRANULARITY 1`,
      replacingBy: 'seq',
      partitionBy: 'toYYYYMM(toDateTime(intDiv(started_at, 1000000)))',
      orderBy: '(project_id, started_at, id)',
      shardBy: 'cityHash64(trace_id)',
    },
    // LLM prices set per project (/cost/create); default prices come from a catalogue.
    // Times are integer microseconds (UTC), as the plan's datetime literals; prices per token.
    // seq orders rows as they were inserted (/cost/query without sort_by).
    {
      name: 'llm_token_prices',
      columns: `id String, pricing_level LowCardinality(String), pricing_level_id String, provider_id String,
        llm_id String, effective_date Int64, prompt_token_cost Float64, completion_token_cost Float64,
        prompt_token_cost_unit LowCardinality(String), completion_token_cost_unit LowCardinality(String),
        created_by String, created_at Int64, seq UInt64`,
      orderBy: '(pricing_level_id, llm_id, id)',
      shardBy: 'cityHash64(pricing_level_id)',
    },
    // Feedback: one row per feedback; JSON columns hold JSON text (as in SQLite); times in
    // microseconds; seq orders rows as inserted and tells a re-sent row from the one it replaces.
    {
      name: 'feedback',
      columns: `project_id String, id String, weave_ref String, wb_user_id String, creator Nullable(String),
        created_at Int64, feedback_type String, payload String, annotation_ref Nullable(String),
        runnable_ref Nullable(String), call_ref Nullable(String), trigger_ref Nullable(String),
        queue_id Nullable(String), scorer_tags String, scorer_tag_reasons String,
        scorer_tag_confidences String, scorer_ratings String, scorer_rating_reasons String,
        scorer_rating_confidences String, span_agent_name String, span_agent_version String,
        span_status_code String, scorer_trace_id String, span_trace_id String, span_conversation_id String,
        seq UInt64, INDEX by_ref weave_ref TYPE bloom_filter GRANULARITY 4`,
      orderBy: '(project_id, id)',
      shardBy: 'cityHash64(project_id)',
    },
    // Files: content in chunks (base64 text: a String column fed by JSON inserts) under a blob
    // id; a files row publishes a blob as (project, digest). The earliest row of a digest wins.
    {
      name: 'file_chunks',
      columns: `blob_id String, seq UInt32, data String`,
      orderBy: '(blob_id, seq)',
      shardBy: 'cityHash64(blob_id)',
    },
    {
      name: 'files',
      columns: `project_id String, digest String, blob_id String, size_bytes UInt64, n_chunks UInt32,
        created_at Int64`,
      orderBy: '(project_id, digest, created_at)',
      shardBy: 'cityHash64(project_id)',
    },
    // Tables: rows content-addressed per project (the same digest always holds the same
    // text, so duplicates written by racing replicas are equal and read once); a table's
    // entries (position -> row digest), then its tables row, written last, publishes it.
    {
      name: 'table_rows',
      columns: `project_id String, digest String, val String, size_bytes UInt64`,
      orderBy: '(project_id, digest)',
      shardBy: 'cityHash64(project_id)',
    },
    {
      name: 'table_entries',
      columns: `project_id String, table_digest String, position UInt64, row_digest String`,
      orderBy: '(project_id, table_digest, position)',
      shardBy: 'cityHash64(project_id)',
    },
    {
      name: 'tables',
      columns: `project_id String, digest String, row_count UInt64, created_at Int64`,
      orderBy: '(project_id, digest)',
      shardBy: 'cityHash64(project_id)',
    },
    // Users, roles and API keys (hashes only), append-only: a role row per change (the
    // newest per user, entity and project wins), a revocation row per revoked key.
    {
      name: 'users',
      columns: `id String, name String, created_at String`,
      orderBy: '(name, id)',
      shardBy: 'cityHash64(name)',
    },
    {
      name: 'user_roles',
      columns: `user_id String, entity String, project String, role LowCardinality(String), seq UInt64`,
      orderBy: '(user_id, entity, project, seq)',
      shardBy: 'cityHash64(user_id)',
    },
    {
      name: 'api_keys',
      columns: `id String, user_id String, key_hash String, prefix String, created_at String`,
      orderBy: '(key_hash, id)',
      shardBy: 'cityHash64(key_hash)',
    },
    {
      name: 'api_key_revocations',
      columns: `id String, revoked_at String`,
      orderBy: 'id',
      shardBy: 'cityHash64(id)',
    },
    // Objects: a version's value once (object_values), its state as rows (object_versions:
    // the newest row per version wins, so a delete or a resurrection is a new row), the
    // latest version per object as pointer rows (digest '' = none), tags and aliases as rows
    // (the newest per tag / alias wins; present = 0 or digest '' = removed).
    {
      name: 'object_values',
      columns: `project_id String, object_id String, digest String, val String, size_bytes UInt64`,
      orderBy: '(project_id, object_id, digest)',
      shardBy: 'cityHash64(project_id)',
    },
    {
      name: 'object_versions',
      columns: `project_id String, object_id String, digest String, version_index UInt32,
        kind LowCardinality(String), base_object_class Nullable(String), leaf_object_class Nullable(String),
        wb_user_id Nullable(String), created_at Int64, deleted_at Nullable(Int64), seq UInt64`,
      orderBy: '(project_id, object_id, digest, seq)',
      shardBy: 'cityHash64(project_id)',
    },
    {
      name: 'object_latest',
      columns: `project_id String, object_id String, digest String, seq UInt64`,
      orderBy: '(project_id, object_id, seq)',
      shardBy: 'cityHash64(project_id)',
    },
    {
      name: 'object_tags',
      columns: `project_id String, object_id String, digest String, tag String, present UInt8, seq UInt64`,
      orderBy: '(project_id, object_id, digest, tag, seq)',
      shardBy: 'cityHash64(project_id)',
    },
    {
      name: 'object_aliases',
      columns: `project_id String, object_id String, alias String, digest String, seq UInt64`,
      orderBy: '(project_id, object_id, alias, seq)',
      shardBy: 'cityHash64(project_id)',
    },
    // One row per change of a project's settings; the newest (by updated_at) wins.
    {
      name: 'project_settings',
      columns: `project_id String, retention_days Nullable(Int32), updated_at Int64, updated_by Nullable(String)`,
      orderBy: '(project_id, updated_at)',
      shardBy: 'cityHash64(project_id)',
    },
  ],
};
