// SQLite tables and indexes for tables (part of migration 2).
export const TABLES_SCHEMA_V2 = ``;
