// Migration 2: the leaves of each call's inputs beside their text.
import type { ChMigration } from './index.js';

export const MIGRATION_2: ChMigration = {
  version: 2,
  tables: [],
  // The leaves of each call's inputs (clickhouse/calls/json-leaves.ts), read instead of the JSON
  // text by filters and sorts on short input paths. Rows written before this read as opaque
  // at the root, which sends every path of their project back to the text (slower, the
  // same answers).
  alters: [
    { table: 'calls', clause: "ADD COLUMN IF NOT EXISTS inputs_leaves String DEFAULT ''", distributed: true },
    {
      table: 'calls',
      clause: "ADD COLUMN IF NOT EXISTS inputs_opaque Array(String) DEFAULT ['']",
      distributed: true,
    },
    {
      table: 'calls',
      clause: 'ADD INDEX IF NOT EXISTS by_inputs_opaque inputs_opaque TYPE bloom_filter GRANULARITY 1',
      distributed: false,
    },
  ],
};
