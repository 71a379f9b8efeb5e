// The ordered migrations of the SQLite engine. Never edit a released migration: add one.
import type { Migration } from './sqlite-database.js';
import { CALLS_SCHEMA_V1 } from './sqlite-calls-schema.js';
import { FEEDBACK_SCHEMA_V1 } from './sqlite-feedback-schema.js';
import { OBJECTS_SCHEMA_V1 } from './sqlite-objects-schema.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: [CALLS_SCHEMA_V1, OBJECTS_SCHEMA_V1, FEEDBACK_SCHEMA_V1].join('\n') },
];
