// A score job's key: the same monitor version, scorer and target always make the same key, on
// every server, so enqueueing twice is one job and the feedback written for it one row.
import { createHash } from 'node:crypto';
import type { ScoreJobInput } from './score-job-store.js';

export function scoreJobKey(
  j: Pick<ScoreJobInput, 'project_id' | 'monitor_id' | 'monitor_digest' | 'scorer_ref' | 'target_kind' | 'target_id'>,
): string {
  return createHash('sha256')
    .update([j.project_id, j.monitor_id, j.monitor_digest, j.scorer_ref, j.target_kind, j.target_id].join('\u0000'))
    .digest('hex')
    .slice(0, 32);
}
