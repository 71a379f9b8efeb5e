// Feedback rows written straight to the store, at chosen times (the HTTP routes stamp `now`):
// the fixtures of the feedback analytics tests.
import { randomBytes } from 'node:crypto';
import type { FeedbackRow } from '../../src/storage/feedback/feedback-store.js';
import { toFeedbackRow } from '../../src/service/feedback/feedback-service.js';
import type { TestApp } from './test-app.js';

export type RowSpec = Partial<FeedbackRow> & { readonly project_id: string; readonly atMs: number };

/** A complete row: a plain note on a call of the project, with the defaults /feedback/create gives. */
export function feedbackRow({ atMs, ...over }: RowSpec): FeedbackRow {
  const note = {
    project_id: over.project_id,
    weave_ref: `weave:///${over.project_id}/call/c1`,
    feedback_type: 'note',
    payload: {},
  };
  return { ...toFeedbackRow(note, {}, 'user', atMs * 1000, () => randomBytes(8).toString('hex')), ...over };
}

/** Writes the rows; returns them (with their ids). */
export async function insertFeedback(t: TestApp, specs: readonly RowSpec[]): Promise<FeedbackRow[]> {
  const rows = specs.map(feedbackRow);
  await t.store.feedback.insert(rows);
  return rows;
}

/** POSTs and asserts nothing: the status and body are the caller's to check. */
export const poster = (t: TestApp, path: string, base: Record<string, unknown>) => (body: Record<string, unknown>) =>
  t.post(path, { ...base, ...body });
