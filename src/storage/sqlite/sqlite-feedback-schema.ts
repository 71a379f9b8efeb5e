// SQLite tables and indexes for feedback (part of migration 1).
export const FEEDBACK_SCHEMA_V1 = ``;
