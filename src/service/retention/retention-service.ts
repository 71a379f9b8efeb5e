// Per-project time-to-live settings: read and update, validated as Weave does
// (null = no time-to-live, else at least one day).
import type { ProjectTTLSettingsReadReq, ProjectTTLSettingsUpdateReq } from '../../api/projects.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { Store } from '../../storage/store.js';
import { nowMicros } from '../../time.js';
import type { Caller } from '../calls/calls-service.js';

/** 100 years: keeps started_at + TTL far inside the exact integer range of microseconds. */
export const MAX_RETENTION_DAYS = 36_500;

export type RetentionService = ReturnType<typeof createRetentionService>;

export function createRetentionService(store: Store) {
  return {
    async read(req: ProjectTTLSettingsReadReq) {
      return { retention_days: await store.projects.getRetentionDays(req.project_id) };
    },

    async update(req: ProjectTTLSettingsUpdateReq, caller: Caller) {
      const days = req.retention_days ?? null;
      if (days !== null && (days < 1 || days > MAX_RETENTION_DAYS)) {
        throw new InvalidRequestError(
          `retention_days must be null (no TTL) or between 1 and ${MAX_RETENTION_DAYS} (days of retention)`,
        );
      }
      await store.projects.setRetentionDays(req.project_id, days, nowMicros(), caller.userId);
      return { retention_days: days };
    },
  };
}
