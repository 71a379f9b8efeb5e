// Migration 5: indexes of the live calls.
import type { Migration } from '../database.js';

// Migration 5: the calls indexes end in (deleted_at, expire_at). Every read of calls keeps
// only live ones (deleted_at IS NULL, expire_at unset or in the future); with both columns in
// the index, a count decides that from the index alone. Without them it had to read each
// row, and in a row those two columns come after the large JSON columns, on overflow pages:
// counting the 10,538 live roots of a 100,000-call project took 28 ms, now 1.1 ms; all its
// calls 152 ms, now 11 ms (measured on the benchmark's data).
export const CALLS_LIVE_INDEXES_V5 = `
DROP INDEX calls_started;
DROP INDEX calls_trace;
DROP INDEX calls_parent;
DROP INDEX calls_op;
CREATE INDEX calls_started ON calls (project_id, started_at, id, deleted_at, expire_at);
CREATE INDEX calls_trace ON calls (project_id, trace_id, started_at, id, deleted_at, expire_at);
CREATE INDEX calls_parent ON calls (project_id, parent_id, started_at, id, deleted_at, expire_at);
CREATE INDEX calls_op ON calls (project_id, op_name, started_at, id, deleted_at, expire_at);
`;

export const MIGRATION_5: Migration = { version: 5, sql: CALLS_LIVE_INDEXES_V5 };
