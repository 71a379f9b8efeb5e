// The ordered migrations of the SQLite engine. Never edit a released migration: add one.
import type { Migration } from './database.js';
import { CALLS_SCHEMA_V1 } from '../calls/call-schema.js';
import { FEEDBACK_SCHEMA_V1 } from '../feedback/feedback-schema.js';
import { OBJECTS_SCHEMA_V1 } from '../objects/object-schema.js';
import { TABLES_SCHEMA_V2 } from '../tables/table-schema.js';
import { FILES_SCHEMA_V2 } from '../files/file-schema.js';
import { COSTS_DROP_DEFAULTS_V7, COSTS_SCHEMA_V2 } from '../costs/cost-schema.js';
import { AUTH_SCHEMA_V3 } from '../auth/auth-schema.js';
import { RETENTION_SCHEMA_V4 } from '../settings/retention-schema.js';
import { CALLS_LIVE_INDEXES_V5 } from '../calls/call-live-indexes.js';
import { FEEDBACK_SCHEMA_V6 } from '../feedback/feedback-v6.js';
import { CALLS_KEYS_V8 } from '../calls/call-keys-v8.js';
import { CALLS_KEYS_V9 } from '../calls/call-keys.js';
import { CALL_IDS_V10 } from '../calls/call-ids.js';

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
