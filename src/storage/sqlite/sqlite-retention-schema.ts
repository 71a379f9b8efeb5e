// SQLite tables and indexes for per-project retention (migration 4). (Filled in by the retention work.)
export const RETENTION_SCHEMA_V4 = ``;
