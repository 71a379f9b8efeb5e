// Migration 4: agent spans (storage/spans/span-store.ts), the columns of SQLite's migration 11. A span
// sent again, or whose owner changes, is a new row with a higher seq: reads take the newest
// (ReplacingMergeTree; FINAL). One trace's spans sit together (the owner pass reads them).
import type { ChMigration } from './index.js';

export const MIGRATION_4: ChMigration = {
  version: 4,
  tables: [
    {
      name: 'spans',
      columns: `
      project_id String, trace_id String, span_id String, parent_span_id Nullable(String), span_name String,
      span_kind String, started_at Int64, ended_at Nullable(Int64), status_code String,
      status_message Nullable(String), operation_name Nullable(String), provider_name Nullable(String),
      agent_name Nullable(String), agent_id Nullable(String), agent_description Nullable(String),
      agent_version Nullable(String), request_model Nullable(String), response_model Nullable(String),
      response_id Nullable(String), input_tokens Nullable(Int64), output_tokens Nullable(Int64),
      reasoning_tokens Nullable(Int64), cache_creation_input_tokens Nullable(Int64),
      cache_read_input_tokens Nullable(Int64), conversation_id Nullable(String),
      conversation_name Nullable(String), tool_name Nullable(String), tool_type Nullable(String),
      tool_call_id Nullable(String), tool_description Nullable(String), tool_definitions Nullable(String),
      tool_call_arguments Nullable(String), tool_call_result Nullable(String),
      request_temperature Nullable(Float64), request_max_tokens Nullable(Int64),
      request_top_p Nullable(Float64), request_frequency_penalty Nullable(Float64),
      request_presence_penalty Nullable(Float64), request_seed Nullable(Int64),
      request_stop_sequences Nullable(String), request_choice_count Nullable(Int64),
      finish_reasons Nullable(String), output_type Nullable(String), error_type Nullable(String),
      server_address Nullable(String), server_port Nullable(Int64), reasoning_content Nullable(String),
      compaction_summary Nullable(String), compaction_items_before Nullable(Int64),
      compaction_items_after Nullable(Int64), content_refs Nullable(String), artifact_refs Nullable(String),
      object_refs Nullable(String), eval_run_id Nullable(String),
      eval_predict_and_score_call_id Nullable(String), eval_kind Nullable(String),
      eval_row_digest Nullable(String), eval_example_id Nullable(String), eval_trial_index Nullable(Int64),
      eval_evaluation_name Nullable(String), parent_call_id Nullable(String),
      parent_call_trace_id Nullable(String), input_messages String, output_messages String,
      system_instructions String, custom_attrs_string String, custom_attrs_int String,
      custom_attrs_float String, custom_attrs_bool String, wb_user_id Nullable(String),
      wb_run_id Nullable(String), wb_run_step Nullable(Int64), wb_run_step_end Nullable(Int64),
      owner_agent_name Nullable(String), owner_agent_version Nullable(String), tokens_counted Int64, raw_span_dump String, seq UInt64`,
      orderBy: '(project_id, trace_id, span_id)',
      shardBy: 'cityHash64(project_id, trace_id)',
      replacingBy: 'seq',
    },
    // What each trace adds to the agent rollups (storage/spans/span-rollups.ts), to take away again.
    {
      name: 'agent_trace_rollups',
      columns: `
        project_id String, trace_id String, agent_name String, agent_version String, model String,
        conversation_id String, span_count Int64, invocation_count Int64, error_count Int64,
        total_duration_ms Int64, input_tokens Int64, output_tokens Int64, reasoning_tokens Int64,
        cache_creation_input_tokens Int64, cache_read_input_tokens Int64, first_seen Int64, last_seen Int64,
        seq UInt64`,
      orderBy: '(project_id, trace_id, agent_name, agent_version, model)',
      shardBy: 'cityHash64(project_id, trace_id)',
      replacingBy: 'seq',
    },
    // The sums per agent, version and model, as deltas that merge into one row per key.
    {
      name: 'agent_rollups',
      columns: `
        project_id String, agent_name String, agent_version String, model String,
        span_count SimpleAggregateFunction(sum, Int64), invocation_count SimpleAggregateFunction(sum, Int64),
        error_count SimpleAggregateFunction(sum, Int64), total_duration_ms SimpleAggregateFunction(sum, Int64),
        input_tokens SimpleAggregateFunction(sum, Int64), output_tokens SimpleAggregateFunction(sum, Int64),
        reasoning_tokens SimpleAggregateFunction(sum, Int64),
        cache_creation_input_tokens SimpleAggregateFunction(sum, Int64),
        cache_read_input_tokens SimpleAggregateFunction(sum, Int64), first_seen SimpleAggregateFunction(min,
        Int64), last_seen SimpleAggregateFunction(max, Int64)`,
      orderBy: '(project_id, agent_name, agent_version, model)',
      shardBy: 'cityHash64(project_id)',
      aggregating: true,
    },
  ],
};
