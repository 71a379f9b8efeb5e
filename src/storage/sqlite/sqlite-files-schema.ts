// SQLite tables and indexes for files (part of migration 2).
export const FILES_SCHEMA_V2 = ``;
