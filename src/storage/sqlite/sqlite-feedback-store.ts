import type { FeedbackStore } from '../feedback-store.js';
import type { SqliteDb } from './sqlite-database.js';

export function createSqliteFeedbackStore(_db: SqliteDb): FeedbackStore {
  return {};
}
