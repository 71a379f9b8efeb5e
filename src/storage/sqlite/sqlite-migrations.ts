// The ordered migrations of the SQLite engine. Never edit a released migration: add one.
import type { Migration } from './sqlite-database.js';
import { CALLS_SCHEMA_V1 } from './sqlite-calls-schema.js';
import { FEEDBACK_SCHEMA_V1 } from './sqlite-feedback-schema.js';
import { OBJECTS_SCHEMA_V1 } from './sqlite-objects-schema.js';
import { TABLES_SCHEMA_V2 } from './sqlite-tables-schema.js';
import { FILES_SCHEMA_V2 } from './sqlite-files-schema.js';
import { COSTS_DROP_DEFAULTS_V7, COSTS_SCHEMA_V2 } from './sqlite-costs-schema.js';
import { AUTH_SCHEMA_V3 } from './sqlite-auth-schema.js';
import { RETENTION_SCHEMA_V4 } from './sqlite-retention-schema.js';
import { CALLS_LIVE_INDEXES_V5 } from './sqlite-calls-live-indexes.js';
import { FEEDBACK_SCHEMA_V6 } from './sqlite-feedback-v6.js';
import { CALLS_KEYS_V8 } from './sqlite-calls-keys-v8.js';
import { CALLS_KEYS_V9 } from './sqlite-call-keys.js';
import { CALL_IDS_V10 } from './sqlite-call-ids.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: [CALLS_SCHEMA_V1, OBJECTS_SCHEMA_V1, FEEDBACK_SCHEMA_V1].join('\n') },
  { version: 2, sql: [TABLES_SCHEMA_V2, FILES_SCHEMA_V2, COSTS_SCHEMA_V2].join('\n') },
  { version: 3, sql: AUTH_SCHEMA_V3 },
  { version: 4, sql: RETENTION_SCHEMA_V4 },
  { version: 5, sql: CALLS_LIVE_INDEXES_V5 },
  { version: 6, sql: FEEDBACK_SCHEMA_V6 },
  { version: 7, sql: COSTS_DROP_DEFAULTS_V7 },
  { version: 8, sql: CALLS_KEYS_V8 },
  { version: 9, sql: CALLS_KEYS_V9 },
  { version: 10, sql: CALL_IDS_V10 },
];
