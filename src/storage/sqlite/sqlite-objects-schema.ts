// SQLite tables and indexes for objects (part of migration 1).
export const OBJECTS_SCHEMA_V1 = ``;
