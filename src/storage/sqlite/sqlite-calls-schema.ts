// SQLite tables and indexes for calls (part of migration 1).
export const CALLS_SCHEMA_V1 = ``;
