// The write procedures of feedback (run by the writer inside its transaction, see
// sqlite/engine/writer.ts). Values reach SQL only as parameters, identifiers only from the
// column allow-list.
import type { FeedbackRow } from '../../feedback/feedback-store.js';
import { FEEDBACK_COLUMNS, FEEDBACK_JSON_COLUMNS } from '../../../query/feedback-fields.js';
import type { SqliteDb } from '../engine/database.js';

const quote = (column: string): string => `"${column}"`;
export const FEEDBACK_COLUMN_LIST = FEEDBACK_COLUMNS.map(quote).join(', ');
const INSERT_SQL =
  `INSERT INTO feedback (${FEEDBACK_COLUMN_LIST}) VALUES (${FEEDBACK_COLUMNS.map(() => '?').join(', ')}) ` +
  `ON CONFLICT (project_id, id) DO UPDATE SET ` +
  FEEDBACK_COLUMNS.filter((c) => c !== 'project_id' && c !== 'id')
    .map((c) => `${quote(c)} = excluded.${quote(c)}`)
    .join(', ');

/** Row -> positional parameters in FEEDBACK_COLUMNS order; JSON columns as JSON text. */
function toParams(row: FeedbackRow): unknown[] {
  return FEEDBACK_COLUMNS.map((c) => (FEEDBACK_JSON_COLUMNS.has(c) ? JSON.stringify(row[c]) : row[c]));
}

export function feedbackWrites(db: SqliteDb) {
  const insert = db.prepare(INSERT_SQL);
  const deleteOne = db.prepare('DELETE FROM feedback WHERE project_id = ? AND id = ?');
  const deleteMany = db.prepare('DELETE FROM feedback WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))');
  return {
    'feedback.insert'(rows: readonly FeedbackRow[]): void {
      for (const row of rows) insert.run(toParams(row));
    },
    'feedback.replace'(projectId: string, feedbackId: string, row: FeedbackRow): void {
      deleteOne.run(projectId, feedbackId);
      insert.run(toParams(row));
    },
    'feedback.purge'(projectId: string, ids: readonly string[]): number {
      return deleteMany.run(projectId, JSON.stringify(ids)).changes;
    },
  };
}
