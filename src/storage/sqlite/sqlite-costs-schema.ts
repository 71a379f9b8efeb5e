// SQLite tables and indexes for costs (part of migration 2).
export const COSTS_SCHEMA_V2 = ``;
