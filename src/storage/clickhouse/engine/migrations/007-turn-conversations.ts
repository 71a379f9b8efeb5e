// Migration 7: SQLite's migration 20. A span sent without a conversation id takes its turn's,
// marked by conversation_inherited so that a later write of the trace can settle it again;
// orchestration_count counts a multi-agent orchestrator's invocations (an agent's kind).
import type { ChMigration } from './index.js';

export const MIGRATION_7: ChMigration = {
  version: 7,
  tables: [],
  alters: [
    { table: 'spans', clause: 'ADD COLUMN IF NOT EXISTS conversation_inherited Int64 DEFAULT 0', distributed: true },
    {
      table: 'agent_trace_rollups',
      clause: 'ADD COLUMN IF NOT EXISTS orchestration_count Int64 DEFAULT 0',
      distributed: true,
    },
    {
      table: 'agent_rollups',
      clause: 'ADD COLUMN IF NOT EXISTS orchestration_count SimpleAggregateFunction(sum, Int64) DEFAULT 0',
      distributed: true,
    },
  ],
};
