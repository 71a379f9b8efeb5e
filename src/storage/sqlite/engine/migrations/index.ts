// The ordered migrations of the SQLite engine, one file each. Never edit a released migration:
// add one. The schema they make is test/fixtures/sqlite-schema.sql (test/sqlite-schema.test.ts).
import type { Migration } from '../database.js';
import { MIGRATION_1 } from './001-calls-objects-feedback.js';
import { MIGRATION_2 } from './002-tables-files-costs.js';
import { MIGRATION_3 } from './003-auth.js';
import { MIGRATION_4 } from './004-retention.js';
import { MIGRATION_5 } from './005-call-live-indexes.js';
import { MIGRATION_6 } from './006-feedback-fields.js';
import { MIGRATION_7 } from './007-cost-defaults.js';
import { MIGRATION_8 } from './008-call-keys-v8.js';
import { MIGRATION_9 } from './009-call-keys.js';
import { MIGRATION_10 } from './010-call-ids.js';
import { MIGRATION_11 } from './011-spans.js';
import { MIGRATION_12 } from './012-span-messages.js';
import { MIGRATION_13 } from './013-historical-turns.js';
import { MIGRATION_14 } from './014-span-message-cover.js';
import { MIGRATION_15 } from './015-span-activity.js';
import { MIGRATION_16 } from './016-span-stats-cover.js';
import { MIGRATION_17 } from './017-feedback-created.js';
import { MIGRATION_18 } from './018-span-messages-by-rowid.js';
import { MIGRATION_19 } from './019-span-conversations.js';
import { MIGRATION_20 } from './020-turn-conversations.js';
import { MIGRATION_21 } from './021-conversation-messages.js';
import { MIGRATION_22 } from './022-span-message-backlog.js';
import { MIGRATION_23 } from './023-span-owner-conversations.js';
import { MIGRATION_24 } from './024-secrets.js';
import { MIGRATION_25 } from './025-score-jobs.js';
import { MIGRATION_26 } from './026-score-job-health.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  MIGRATION_1,
  MIGRATION_2,
  MIGRATION_3,
  MIGRATION_4,
  MIGRATION_5,
  MIGRATION_6,
  MIGRATION_7,
  MIGRATION_8,
  MIGRATION_9,
  MIGRATION_10,
  MIGRATION_11,
  MIGRATION_12,
  MIGRATION_13,
  MIGRATION_14,
  MIGRATION_15,
  MIGRATION_16,
  MIGRATION_17,
  MIGRATION_18,
  MIGRATION_19,
  MIGRATION_20,
  MIGRATION_21,
  MIGRATION_22,
  MIGRATION_23,
  MIGRATION_24,
  MIGRATION_25,
  MIGRATION_26,
];
