// What every engine must offer for per-project settings (today: the calls' time-to-live).
import type { Micros } from '../time.js';

export interface ProjectSettingsStore {
  /** Days calls of the project are kept, or null when no time-to-live is configured. */
  getRetentionDays(projectId: string): Promise<number | null>;
  /** Sets (null: clears) the project's time-to-live; applies to calls written from now on. */
  setRetentionDays(projectId: string, days: number | null, at: Micros, userId: string | null): Promise<void>;
}
